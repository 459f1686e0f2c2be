import type { Language } from '@suite/contract';

/** The security notices: something changed on the account; what to do if it was not you. */
export type Notice =
  | 'passkey-added'
  | 'passkey-removed'
  | 'totp-on'
  | 'totp-off'
  | 'password-changed'
  | 'recovery-codes-new'
  | 'factors-reset'
  /** An administrator reset only one of the two (the mail says which). */
  | 'two-step-reset'
  | 'passkeys-reset';

export interface NoticeTexts {
  subject: Record<Notice, string>;
  /** The first sentence: what happened (the heading is the subject). */
  intro: Record<Notice, string>;
  preview: string;
  button: string;
  ifYou: string;
  why: string;
  notYou: string;
  /** The "this wasn't me" link of a factor change: undoes it and signs out everywhere. */
  notMeButton: string;
  notMeWhat: string;
}

/** `{app}` is filled in by render. */
export const NOTICE_TEXTS: Record<Language, NoticeTexts> = {
  en: {
    subject: {
      'passkey-added': 'A passkey was added to your {app} account',
      'passkey-removed': 'A passkey was removed from your {app} account',
      'totp-on': 'Two-step verification was turned on',
      'totp-off': 'Two-step verification was turned off',
      'password-changed': 'Your {app} password was changed',
      'recovery-codes-new': 'New recovery codes were made for your {app} account',
      'factors-reset': 'Your {app} two-step verification and passkeys were reset',
      'two-step-reset': 'Your {app} two-step verification was reset',
      'passkeys-reset': 'Your {app} passkeys were removed',
    },
    intro: {
      'passkey-added': 'A new passkey can now sign in to your {app} account without a password.',
      'passkey-removed':
        'A passkey of your {app} account was removed and can no longer sign in; your other devices were signed out.',
      'totp-on': 'Signing in to your {app} account with a password now also asks for a code from an authenticator app.',
      'totp-off':
        'Signing in to your {app} account with a password no longer asks for a code from an authenticator app.',
      'password-changed':
        'The password of your {app} account was changed, and your other devices were signed out. If it was not you, the link below also removes the new password: then choose one with “Forgot your password?”.',
      'recovery-codes-new': 'New recovery codes were made for your {app} account; the earlier ones no longer work.',
      'factors-reset':
        'An administrator turned off two-step verification and removed the passkeys of your {app} account. Sign in with your password and set them up again.',
      'two-step-reset':
        'An administrator turned off two-step verification of your {app} account; your devices were signed out. Sign in with your password and set it up again in Security.',
      'passkeys-reset':
        'An administrator removed the passkeys of your {app} account; your devices were signed out. Sign in with your password and add a passkey again in Security.',
    },
    preview: 'A security setting of your {app} account changed.',
    button: 'Review your security settings',
    ifYou: 'If it was you, there is nothing else to do.',
    why: 'You are receiving this because a security setting of your {app} account changed.',
    notYou:
      'If it was not you, choose a new password with “Forgot your password?” on the sign-in screen now, then remove what you do not recognize in Security and sign out of all devices.',
    notMeButton: 'This wasn’t me',
    notMeWhat:
      'If it was not you, use this link (it works once, for 7 days): it undoes the change and signs your account out everywhere. Then choose a new password.',
  },
  pt: {
    subject: {
      'passkey-added': 'Uma chave de acesso foi adicionada à sua conta do {app}',
      'passkey-removed': 'Uma chave de acesso foi removida da sua conta do {app}',
      'totp-on': 'A verificação em duas etapas foi ativada',
      'totp-off': 'A verificação em duas etapas foi desativada',
      'password-changed': 'A sua senha do {app} foi alterada',
      'recovery-codes-new': 'Novos códigos de recuperação foram criados para a sua conta do {app}',
      'factors-reset': 'A verificação em duas etapas e as chaves de acesso da sua conta do {app} foram redefinidas',
      'two-step-reset': 'A verificação em duas etapas da sua conta do {app} foi redefinida',
      'passkeys-reset': 'As chaves de acesso da sua conta do {app} foram removidas',
    },
    intro: {
      'passkey-added': 'Uma nova chave de acesso agora pode entrar na sua conta do {app} sem senha.',
      'passkey-removed':
        'Uma chave de acesso da sua conta do {app} foi removida e não pode mais entrar; a sua conta saiu dos outros dispositivos.',
      'totp-on': 'Entrar na sua conta do {app} com senha agora também pede um código de um aplicativo autenticador.',
      'totp-off': 'Entrar na sua conta do {app} com senha não pede mais um código de um aplicativo autenticador.',
      'password-changed':
        'A senha da sua conta do {app} foi alterada, e a sua conta saiu dos outros dispositivos. Se não foi você, o link abaixo também remove a nova senha: depois escolha uma em “Esqueceu sua senha?”.',
      'recovery-codes-new':
        'Novos códigos de recuperação foram criados para a sua conta do {app}; os anteriores não funcionam mais.',
      'factors-reset':
        'Um administrador desativou a verificação em duas etapas e removeu as chaves de acesso da sua conta do {app}. Entre com a sua senha e configure-as novamente.',
      'two-step-reset':
        'Um administrador desativou a verificação em duas etapas da sua conta do {app}; a sua conta saiu de todos os dispositivos. Entre com a sua senha e configure-a novamente em Segurança.',
      'passkeys-reset':
        'Um administrador removeu as chaves de acesso da sua conta do {app}; a sua conta saiu de todos os dispositivos. Entre com a sua senha e adicione uma chave de acesso novamente em Segurança.',
    },
    preview: 'Uma configuração de segurança da sua conta do {app} mudou.',
    button: 'Revisar as configurações de segurança',
    ifYou: 'Se foi você, não há mais nada a fazer.',
    why: 'Você recebeu esta mensagem porque uma configuração de segurança da sua conta do {app} mudou.',
    notYou:
      'Se não foi você, escolha agora uma nova senha em “Esqueceu sua senha?” na tela de entrada, depois remova o que não reconhecer em Segurança e saia de todos os dispositivos.',
    notMeButton: 'Não fui eu',
    notMeWhat:
      'Se não foi você, use este link (funciona uma vez, por 7 dias): ele desfaz a alteração e faz a sua conta sair de todos os dispositivos. Depois escolha uma nova senha.',
  },
  es: {
    subject: {
      'passkey-added': 'Se añadió una llave de acceso a tu cuenta de {app}',
      'passkey-removed': 'Se quitó una llave de acceso de tu cuenta de {app}',
      'totp-on': 'Se activó la verificación en dos pasos',
      'totp-off': 'Se desactivó la verificación en dos pasos',
      'password-changed': 'Se cambió tu contraseña de {app}',
      'recovery-codes-new': 'Se crearon nuevos códigos de recuperación para tu cuenta de {app}',
      'factors-reset': 'Se restablecieron la verificación en dos pasos y las llaves de acceso de tu cuenta de {app}',
      'two-step-reset': 'Se restableció la verificación en dos pasos de tu cuenta de {app}',
      'passkeys-reset': 'Se quitaron las llaves de acceso de tu cuenta de {app}',
    },
    intro: {
      'passkey-added': 'Una nueva llave de acceso ya puede iniciar sesión en tu cuenta de {app} sin contraseña.',
      'passkey-removed':
        'Se quitó una llave de acceso de tu cuenta de {app} y ya no puede iniciar sesión; se cerró la sesión en tus otros dispositivos.',
      'totp-on':
        'Iniciar sesión en tu cuenta de {app} con contraseña ahora también pide un código de una aplicación de autenticación.',
      'totp-off':
        'Iniciar sesión en tu cuenta de {app} con contraseña ya no pide un código de una aplicación de autenticación.',
      'password-changed':
        'Se cambió la contraseña de tu cuenta de {app} y se cerró la sesión en tus otros dispositivos. Si no fuiste tú, el enlace de abajo también quita la nueva contraseña: después elige una con “¿Olvidaste tu contraseña?”.',
      'recovery-codes-new':
        'Se crearon nuevos códigos de recuperación para tu cuenta de {app}; los anteriores ya no funcionan.',
      'factors-reset':
        'Un administrador desactivó la verificación en dos pasos y quitó las llaves de acceso de tu cuenta de {app}. Inicia sesión con tu contraseña y vuelve a configurarlas.',
      'two-step-reset':
        'Un administrador desactivó la verificación en dos pasos de tu cuenta de {app}; se cerró la sesión en tus dispositivos. Inicia sesión con tu contraseña y vuelve a configurarla en Seguridad.',
      'passkeys-reset':
        'Un administrador quitó las llaves de acceso de tu cuenta de {app}; se cerró la sesión en tus dispositivos. Inicia sesión con tu contraseña y vuelve a añadir una llave de acceso en Seguridad.',
    },
    preview: 'Cambió un ajuste de seguridad de tu cuenta de {app}.',
    button: 'Revisar los ajustes de seguridad',
    ifYou: 'Si fuiste tú, no tienes que hacer nada más.',
    why: 'Recibes este mensaje porque cambió un ajuste de seguridad de tu cuenta de {app}.',
    notYou:
      'Si no fuiste tú, elige ahora una nueva contraseña con “¿Olvidaste tu contraseña?” en la pantalla de inicio de sesión, luego quita lo que no reconozcas en Seguridad y cierra la sesión en todos los dispositivos.',
    notMeButton: 'No fui yo',
    notMeWhat:
      'Si no fuiste tú, usa este enlace (funciona una vez, durante 7 días): deshace el cambio y cierra la sesión de tu cuenta en todas partes. Después elige una nueva contraseña.',
  },
  hi: {
    subject: {
      'passkey-added': 'आपके {app} खाते में एक पासकी जोड़ी गई',
      'passkey-removed': 'आपके {app} खाते से एक पासकी हटाई गई',
      'totp-on': 'दो‑चरणीय सत्यापन चालू किया गया',
      'totp-off': 'दो‑चरणीय सत्यापन बंद किया गया',
      'password-changed': 'आपका {app} पासवर्ड बदला गया',
      'recovery-codes-new': 'आपके {app} खाते के लिए नए रिकवरी कोड बनाए गए',
      'factors-reset': 'आपके {app} खाते का दो‑चरणीय सत्यापन और पासकी रीसेट किए गए',
      'two-step-reset': 'आपके {app} खाते का दो‑चरणीय सत्यापन रीसेट किया गया',
      'passkeys-reset': 'आपके {app} खाते की पासकी हटा दी गईं',
    },
    intro: {
      'passkey-added': 'एक नई पासकी अब बिना पासवर्ड के आपके {app} खाते में साइन इन कर सकती है।',
      'passkey-removed':
        'आपके {app} खाते की एक पासकी हटाई गई और अब उससे साइन इन नहीं हो सकता; आपके दूसरे डिवाइस साइन आउट कर दिए गए।',
      'totp-on': 'पासवर्ड से आपके {app} खाते में साइन इन करने पर अब ऑथेंटिकेटर ऐप का कोड भी माँगा जाएगा।',
      'totp-off': 'पासवर्ड से आपके {app} खाते में साइन इन करने पर अब ऑथेंटिकेटर ऐप का कोड नहीं माँगा जाएगा।',
      'password-changed':
        'आपके {app} खाते का पासवर्ड बदला गया, और आपके दूसरे डिवाइस साइन आउट कर दिए गए। अगर यह आपने नहीं किया, तो नीचे दिया लिंक नया पासवर्ड भी हटा देता है: फिर “पासवर्ड भूल गए?” से नया पासवर्ड चुनें।',
      'recovery-codes-new': 'आपके {app} खाते के लिए नए रिकवरी कोड बनाए गए; पुराने कोड अब काम नहीं करते।',
      'factors-reset':
        'एक व्यवस्थापक ने आपके {app} खाते का दो‑चरणीय सत्यापन बंद किया और उसकी पासकी हटा दीं। अपने पासवर्ड से साइन इन करें और इन्हें फिर से सेट करें।',
      'two-step-reset':
        'एक व्यवस्थापक ने आपके {app} खाते का दो‑चरणीय सत्यापन बंद किया; आपके डिवाइस साइन आउट कर दिए गए। अपने पासवर्ड से साइन इन करें और सुरक्षा में इसे फिर से सेट करें।',
      'passkeys-reset':
        'एक व्यवस्थापक ने आपके {app} खाते की पासकी हटा दीं; आपके डिवाइस साइन आउट कर दिए गए। अपने पासवर्ड से साइन इन करें और सुरक्षा में फिर से पासकी जोड़ें।',
    },
    preview: 'आपके {app} खाते की एक सुरक्षा सेटिंग बदली है।',
    button: 'सुरक्षा सेटिंग देखें',
    ifYou: 'अगर यह आपने किया था, तो और कुछ करने की ज़रूरत नहीं है।',
    why: 'आपको यह संदेश इसलिए मिला है क्योंकि आपके {app} खाते की एक सुरक्षा सेटिंग बदली है।',
    notYou:
      'अगर यह आपने नहीं किया, तो अभी साइन‑इन स्क्रीन पर “पासवर्ड भूल गए?” से नया पासवर्ड चुनें, फिर सुरक्षा में जो आप नहीं पहचानते उसे हटाएँ और सभी डिवाइस से साइन आउट करें।',
    notMeButton: 'यह मैंने नहीं किया',
    notMeWhat:
      'अगर यह आपने नहीं किया, तो इस लिंक का इस्तेमाल करें (यह 7 दिनों तक, एक बार काम करता है): यह बदलाव वापस लेता है और आपके खाते को हर जगह से साइन आउट करता है। फिर नया पासवर्ड चुनें।',
  },
  it: {
    subject: {
      'passkey-added': 'Una passkey è stata aggiunta al tuo account {app}',
      'passkey-removed': 'Una passkey è stata rimossa dal tuo account {app}',
      'totp-on': 'La verifica in due passaggi è stata attivata',
      'totp-off': 'La verifica in due passaggi è stata disattivata',
      'password-changed': 'La tua password di {app} è stata cambiata',
      'recovery-codes-new': 'Sono stati creati nuovi codici di recupero per il tuo account {app}',
      'factors-reset': 'La verifica in due passaggi e le passkey del tuo account {app} sono state reimpostate',
      'two-step-reset': 'La verifica in due passaggi del tuo account {app} è stata reimpostata',
      'passkeys-reset': 'Le passkey del tuo account {app} sono state rimosse',
    },
    intro: {
      'passkey-added': 'Una nuova passkey ora può accedere al tuo account {app} senza password.',
      'passkey-removed':
        'Una passkey del tuo account {app} è stata rimossa e non può più accedere; il tuo account è uscito dagli altri dispositivi.',
      'totp-on':
        'L’accesso al tuo account {app} con la password ora chiede anche un codice da un’app di autenticazione.',
      'totp-off':
        'L’accesso al tuo account {app} con la password non chiede più un codice da un’app di autenticazione.',
      'password-changed':
        'La password del tuo account {app} è stata cambiata e il tuo account è uscito dagli altri dispositivi. Se non sei stato tu, il link qui sotto rimuove anche la nuova password: poi scegline una con “Hai dimenticato la password?”.',
      'recovery-codes-new':
        'Sono stati creati nuovi codici di recupero per il tuo account {app}; quelli precedenti non funzionano più.',
      'factors-reset':
        'Un amministratore ha disattivato la verifica in due passaggi e rimosso le passkey del tuo account {app}. Accedi con la password e configurale di nuovo.',
      'two-step-reset':
        'Un amministratore ha disattivato la verifica in due passaggi del tuo account {app}; il tuo account è uscito da tutti i dispositivi. Accedi con la password e configurala di nuovo in Sicurezza.',
      'passkeys-reset':
        'Un amministratore ha rimosso le passkey del tuo account {app}; il tuo account è uscito da tutti i dispositivi. Accedi con la password e aggiungi di nuovo una passkey in Sicurezza.',
    },
    preview: 'Un’impostazione di sicurezza del tuo account {app} è cambiata.',
    button: 'Controlla le impostazioni di sicurezza',
    ifYou: 'Se sei stato tu, non devi fare altro.',
    why: 'Ricevi questo messaggio perché un’impostazione di sicurezza del tuo account {app} è cambiata.',
    notYou:
      'Se non sei stato tu, scegli subito una nuova password con “Hai dimenticato la password?” nella schermata di accesso, poi rimuovi ciò che non riconosci in Sicurezza ed esci da tutti i dispositivi.',
    notMeButton: 'Non sono stato io',
    notMeWhat:
      'Se non sei stato tu, usa questo link (funziona una volta, per 7 giorni): annulla la modifica e fa uscire il tuo account da tutti i dispositivi. Poi scegli una nuova password.',
  },
};
