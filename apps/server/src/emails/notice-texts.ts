import type { Language } from '@suite/contract';

/** The security notices (issue 21): something changed on the account; what to do if it was not you. */
export type Notice = 'passkey-added' | 'totp-on' | 'totp-off' | 'password-changed';

export interface NoticeTexts {
  subject: Record<Notice, string>;
  /** The first sentence: what happened (the heading is the subject). */
  intro: Record<Notice, string>;
  preview: string;
  button: string;
  ifYou: string;
  why: string;
  notYou: string;
}

/** `{app}` is filled in by render. */
export const NOTICE_TEXTS: Record<Language, NoticeTexts> = {
  en: {
    subject: {
      'passkey-added': 'A passkey was added to your {app} account',
      'totp-on': 'Two-step verification was turned on',
      'totp-off': 'Two-step verification was turned off',
      'password-changed': 'Your {app} password was changed',
    },
    intro: {
      'passkey-added': 'A new passkey can now sign in to your {app} account without a password.',
      'totp-on': 'Signing in to your {app} account with a password now also asks for a code from an authenticator app.',
      'totp-off':
        'Signing in to your {app} account with a password no longer asks for a code from an authenticator app.',
      'password-changed': 'The password of your {app} account was changed, and your other devices were signed out.',
    },
    preview: 'A security setting of your {app} account changed.',
    button: 'Review your security settings',
    ifYou: 'If it was you, there is nothing else to do.',
    why: 'You are receiving this because a security setting of your {app} account changed.',
    notYou:
      'If it was not you, choose a new password with "Forgot your password?" on the sign-in screen now, then remove what you do not recognize in Security and sign out of all devices.',
  },
  pt: {
    subject: {
      'passkey-added': 'Uma chave de acesso foi adicionada à sua conta do {app}',
      'totp-on': 'A verificação em duas etapas foi ativada',
      'totp-off': 'A verificação em duas etapas foi desativada',
      'password-changed': 'A sua senha do {app} foi alterada',
    },
    intro: {
      'passkey-added': 'Uma nova chave de acesso agora pode entrar na sua conta do {app} sem senha.',
      'totp-on': 'Entrar na sua conta do {app} com senha agora também pede um código de um aplicativo autenticador.',
      'totp-off': 'Entrar na sua conta do {app} com senha não pede mais um código de um aplicativo autenticador.',
      'password-changed':
        'A senha da sua conta do {app} foi alterada, e os seus outros dispositivos foram desconectados.',
    },
    preview: 'Uma configuração de segurança da sua conta do {app} mudou.',
    button: 'Revisar as configurações de segurança',
    ifYou: 'Se foi você, não há mais nada a fazer.',
    why: 'Você recebeu esta mensagem porque uma configuração de segurança da sua conta do {app} mudou.',
    notYou:
      'Se não foi você, escolha agora uma nova senha em "Esqueceu sua senha?" na tela de entrada, depois remova o que não reconhecer em Segurança e saia de todos os dispositivos.',
  },
  es: {
    subject: {
      'passkey-added': 'Se añadió una llave de acceso a tu cuenta de {app}',
      'totp-on': 'Se activó la verificación en dos pasos',
      'totp-off': 'Se desactivó la verificación en dos pasos',
      'password-changed': 'Se cambió tu contraseña de {app}',
    },
    intro: {
      'passkey-added': 'Una nueva llave de acceso ya puede iniciar sesión en tu cuenta de {app} sin contraseña.',
      'totp-on':
        'Iniciar sesión en tu cuenta de {app} con contraseña ahora también pide un código de una aplicación de autenticación.',
      'totp-off':
        'Iniciar sesión en tu cuenta de {app} con contraseña ya no pide un código de una aplicación de autenticación.',
      'password-changed':
        'Se cambió la contraseña de tu cuenta de {app} y se cerró la sesión en tus otros dispositivos.',
    },
    preview: 'Cambió un ajuste de seguridad de tu cuenta de {app}.',
    button: 'Revisar los ajustes de seguridad',
    ifYou: 'Si fuiste tú, no tienes que hacer nada más.',
    why: 'Recibes este mensaje porque cambió un ajuste de seguridad de tu cuenta de {app}.',
    notYou:
      'Si no fuiste tú, elige ahora una nueva contraseña con "¿Olvidaste tu contraseña?" en la pantalla de inicio de sesión, luego quita lo que no reconozcas en Seguridad y cierra la sesión en todos los dispositivos.',
  },
  hi: {
    subject: {
      'passkey-added': 'आपके {app} खाते में एक पासकी जोड़ी गई',
      'totp-on': 'दो-चरणीय सत्यापन चालू किया गया',
      'totp-off': 'दो-चरणीय सत्यापन बंद किया गया',
      'password-changed': 'आपका {app} पासवर्ड बदला गया',
    },
    intro: {
      'passkey-added': 'एक नई पासकी अब बिना पासवर्ड के आपके {app} खाते में साइन इन कर सकती है।',
      'totp-on': 'पासवर्ड से आपके {app} खाते में साइन इन करने पर अब ऑथेंटिकेटर ऐप का कोड भी माँगा जाएगा।',
      'totp-off': 'पासवर्ड से आपके {app} खाते में साइन इन करने पर अब ऑथेंटिकेटर ऐप का कोड नहीं माँगा जाएगा।',
      'password-changed': 'आपके {app} खाते का पासवर्ड बदला गया, और आपके दूसरे डिवाइस साइन आउट कर दिए गए।',
    },
    preview: 'आपके {app} खाते की एक सुरक्षा सेटिंग बदली है।',
    button: 'सुरक्षा सेटिंग देखें',
    ifYou: 'अगर यह आपने किया था, तो और कुछ करने की ज़रूरत नहीं है।',
    why: 'आपको यह संदेश इसलिए मिला क्योंकि आपके {app} खाते की एक सुरक्षा सेटिंग बदली है।',
    notYou:
      'अगर यह आपने नहीं किया, तो अभी साइन-इन स्क्रीन पर "पासवर्ड भूल गए?" से नया पासवर्ड चुनें, फिर सुरक्षा में जो आप नहीं पहचानते उसे हटाएँ और सभी डिवाइस से साइन आउट करें।',
  },
  it: {
    subject: {
      'passkey-added': 'Una passkey è stata aggiunta al tuo account {app}',
      'totp-on': 'La verifica in due passaggi è stata attivata',
      'totp-off': 'La verifica in due passaggi è stata disattivata',
      'password-changed': 'La tua password di {app} è stata cambiata',
    },
    intro: {
      'passkey-added': 'Una nuova passkey ora può accedere al tuo account {app} senza password.',
      'totp-on':
        "L'accesso al tuo account {app} con la password ora chiede anche un codice da un'app di autenticazione.",
      'totp-off':
        "L'accesso al tuo account {app} con la password non chiede più un codice da un'app di autenticazione.",
      'password-changed':
        'La password del tuo account {app} è stata cambiata e gli altri tuoi dispositivi sono stati disconnessi.',
    },
    preview: 'Un’impostazione di sicurezza del tuo account {app} è cambiata.',
    button: 'Controlla le impostazioni di sicurezza',
    ifYou: 'Se sei stato tu, non devi fare altro.',
    why: 'Ricevi questo messaggio perché un’impostazione di sicurezza del tuo account {app} è cambiata.',
    notYou:
      'Se non sei stato tu, scegli subito una nuova password con "Hai dimenticato la password?" nella schermata di accesso, poi rimuovi ciò che non riconosci in Sicurezza ed esci da tutti i dispositivi.',
  },
};
