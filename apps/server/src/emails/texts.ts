import type { Language } from '@suite/contract';

/**
 * Every string a mail shows, per language (the one source of the HTML and the plain-text part).
 * `{app}`, `{minutes}`, `{inviter}` (the name the inviter typed), `{inviterAddress}`, `{domain}` (the
 * invitee's, the inviter's too) and `{days}` are filled in by render. No subject or preview holds the
 * code: both show on lock screens and in notifications, where anyone nearby could read it.
 */
export interface MailTexts {
  /** Writing direction of the language (all five are left-to-right; an RTL language sets 'rtl'). */
  dir: 'ltr' | 'rtl';
  confirmSubject: string;
  confirmHeading: string;
  confirmPreview: string;
  confirmIntro: string;
  confirmWhy: string;
  confirmIgnore: string;
  recoverySubject: string;
  recoveryHeading: string;
  recoveryPreview: string;
  recoveryIntro: string;
  recoveryWhy: string;
  recoveryIgnore: string;
  /** A resent code (an earlier one of the same kind was still pending): the subject says it is new. */
  confirmSubjectNew: string;
  recoverySubjectNew: string;
  /** A resent code: the earlier one no longer works. */
  codeReplaces: string;
  /** A resent code: `{when}` (date and time, UTC) and `{browser}` (browserOn or browserUnknown). */
  codeRequested: string;
  /** A resent code: added to the "if it was not you" line. */
  codeNeverShare: string;
  /** `{browser}` on `{system}`, e.g. "Firefox on Windows". */
  browserOn: string;
  browserUnknown: string;
  codeExpiry: string;
  /** `codeExpiry` when the lifetime is one minute (CODE_TTL_SECONDS of 90 or less). */
  codeExpiryOne: string;
  /** Names the inviter by address, never by the typed name alone (a name can read like an instruction). */
  inviteSubject: string;
  /** Also the subject of an invitation sent by an administrator (the admin CLI: no inviting person). */
  inviteHeading: string;
  invitePreview: string;
  inviteIntro: string;
  inviteIntroAdmin: string;
  inviteButton: string;
  linkFallback: string;
  inviteExpiry: string;
  inviteWhy: string;
  inviteIgnore: string;
  footer: string;
  footerAuto: string;
  /**
   * The alarms after repeated wrong two-step codes (plugins/throttle.ts), by the step that preceded
   * them: the right password at sign-in, or a reset code read from the mailbox. Subject and preview say
   * what the stranger had first; no code, no address of the person trying.
   */
  alarms: Record<SecondFactorAlarmKind, AlarmTexts>;
}

/** Which step the wrong two-step codes followed. */
export type SecondFactorAlarmKind = 'password-known' | 'mailbox-known';

interface AlarmTexts {
  subject: string;
  preview: string;
  intro: string;
  button: string;
  advice: string;
  why: string;
  ifYou: string;
}

export const MAIL_TEXTS: Record<Language, MailTexts> = {
  en: {
    dir: 'ltr',
    confirmSubject: 'Your {app} confirmation code',
    confirmHeading: 'Confirm your email address',
    confirmPreview: 'Use the code in this email to finish signing up for {app}.',
    confirmIntro: 'Enter this code to confirm your email address and finish signing up:',
    confirmWhy: 'You are receiving this because someone entered this address to sign up for {app}.',
    confirmIgnore: 'If it was not you, ignore this message: without the code, no account is created.',
    recoverySubject: 'Your {app} password reset code',
    recoveryHeading: 'Reset your password',
    recoveryPreview: 'Use the code in this email to choose a new password for {app}.',
    recoveryIntro: 'Enter this code to choose a new password:',
    recoveryWhy: 'You are receiving this because a new password was requested for this address on {app}.',
    recoveryIgnore: 'If it was not you, ignore this message: your password stays as it is.',
    confirmSubjectNew: 'Your new {app} confirmation code',
    recoverySubjectNew: 'Your new {app} password reset code',
    codeReplaces: 'This code replaces the one we sent you earlier, which no longer works.',
    codeRequested: 'Asked for on {when} from {browser}.',
    codeNeverShare: 'Never share the code: nobody from {app} will ask you for it.',
    browserOn: '{browser} on {system}',
    browserUnknown: 'an unknown browser',
    codeExpiry: 'The code works for {minutes} minutes.',
    codeExpiryOne: 'The code works for 1 minute.',
    inviteSubject: '{inviterAddress} invited you to join {domain} on {app}',
    inviteHeading: 'You are invited to {app}',
    invitePreview: 'Accept the invitation within {days} days to join your team on {app}.',
    inviteIntro: '{inviter} ({inviterAddress}) invited you to join the {domain} team on {app}.',
    inviteIntroAdmin: 'An administrator invited you to join {app}.',
    inviteButton: 'Accept the invitation',
    linkFallback: 'Or copy this link into your browser:',
    inviteExpiry: 'The invitation is valid for {days} days.',
    inviteWhy: 'You are receiving this because this address was invited to {app}.',
    inviteIgnore: 'If you were not expecting it, ignore this message: no account is created unless you accept.',
    footer: 'Sent by {app}.',
    footerAuto: 'This is an automatic message; replies to it are not read.',
    alarms: {
      'password-known': {
        subject: 'Someone knows your {app} password',
        preview: 'Your password was entered correctly, followed by many wrong two-step codes. Change your password.',
        intro:
          'Someone entered the correct password of your {app} account, then many wrong two-step verification codes. The codes kept them out, but your password is no longer a secret.',
        button: 'Choose a new password',
        advice: 'Choose a new password now, one you use nowhere else: it also signs out every other device.',
        why: 'You are receiving this because wrong two-step verification codes followed the correct password of your {app} account.',
        ifYou: 'If it was you, typing the codes wrong, there is nothing else to do.',
      },
      'mailbox-known': {
        subject: 'Someone is trying to reset your {app} password',
        preview:
          'A reset code sent to this address was used, then many wrong two-step codes. Check who can read your email.',
        intro:
          'Someone used a password reset code sent to this address, then entered many wrong two-step verification codes. The codes kept them out and your password has not changed, but whoever it was could read the code in your mailbox.',
        button: 'Review your security',
        advice:
          'If it was not you, secure your mailbox first (its password, and who else can read it), then review your devices and two-step verification.',
        why: 'You are receiving this because wrong two-step verification codes followed a password reset of your {app} account.',
        ifYou: 'If it was you, typing the codes wrong, there is nothing else to do.',
      },
    },
  },
  pt: {
    dir: 'ltr',
    confirmSubject: 'Seu código de confirmação do {app}',
    confirmHeading: 'Confirme seu endereço de e‑mail',
    confirmPreview: 'Use o código deste e‑mail para concluir o cadastro no {app}.',
    confirmIntro: 'Digite este código para confirmar o seu e‑mail e concluir o cadastro:',
    confirmWhy: 'Você recebeu esta mensagem porque alguém informou este endereço para se cadastrar no {app}.',
    confirmIgnore: 'Se não foi você, ignore esta mensagem: sem o código, nenhuma conta é criada.',
    recoverySubject: 'Seu código de redefinição de senha do {app}',
    recoveryHeading: 'Redefina sua senha',
    recoveryPreview: 'Use o código deste e‑mail para escolher uma nova senha no {app}.',
    recoveryIntro: 'Digite este código para escolher uma nova senha:',
    recoveryWhy: 'Você recebeu esta mensagem porque foi pedida uma nova senha para este endereço no {app}.',
    recoveryIgnore: 'Se não foi você, ignore esta mensagem: sua senha continua a mesma.',
    confirmSubjectNew: 'Seu novo código de confirmação do {app}',
    recoverySubjectNew: 'Seu novo código de redefinição de senha do {app}',
    codeReplaces: 'Este código substitui o que enviamos antes, que não funciona mais.',
    codeRequested: 'Pedido em {when} a partir de {browser}.',
    codeNeverShare: 'Nunca compartilhe o código: ninguém do {app} vai pedi-lo a você.',
    browserOn: '{browser} no {system}',
    browserUnknown: 'um navegador desconhecido',
    codeExpiry: 'O código é válido por {minutes} minutos.',
    codeExpiryOne: 'O código é válido por 1 minuto.',
    inviteSubject: '{inviterAddress} convidou você para entrar em {domain} no {app}',
    inviteHeading: 'Você foi convidado para o {app}',
    invitePreview: 'Aceite o convite em até {days} dias para entrar na sua equipe no {app}.',
    inviteIntro: '{inviter} ({inviterAddress}) convidou você para entrar na equipe de {domain} no {app}.',
    inviteIntroAdmin: 'Um administrador convidou você para entrar no {app}.',
    inviteButton: 'Aceitar o convite',
    linkFallback: 'Ou copie este link e cole no seu navegador:',
    inviteExpiry: 'O convite é válido por {days} dias.',
    inviteWhy: 'Você recebeu esta mensagem porque este endereço foi convidado para o {app}.',
    inviteIgnore: 'Se você não esperava por isso, ignore esta mensagem: nenhuma conta é criada sem o seu aceite.',
    footer: 'Enviado por {app}.',
    footerAuto: 'Esta é uma mensagem automática; as respostas não são lidas.',
    alarms: {
      'password-known': {
        subject: 'Alguém sabe a sua senha do {app}',
        preview:
          'A sua senha foi digitada corretamente, seguida de muitos códigos de duas etapas errados. Altere a sua senha.',
        intro:
          'Alguém digitou a senha correta da sua conta do {app} e depois muitos códigos errados na verificação em duas etapas. Os códigos impediram a entrada, mas a sua senha não é mais um segredo.',
        button: 'Escolher uma nova senha',
        advice:
          'Escolha agora uma nova senha, que você não use em nenhum outro lugar: isso também faz a sua conta sair de todos os outros dispositivos.',
        why: 'Você recebeu esta mensagem porque códigos de verificação em duas etapas errados seguiram a senha correta da sua conta do {app}.',
        ifYou: 'Se foi você, digitando os códigos errado, não há mais nada a fazer.',
      },
      'mailbox-known': {
        subject: 'Alguém está tentando redefinir a sua senha do {app}',
        preview:
          'Um código de redefinição enviado a este endereço foi usado, seguido de muitos códigos de duas etapas errados. Verifique quem pode ler o seu e‑mail.',
        intro:
          'Alguém usou um código de redefinição de senha enviado a este endereço e depois digitou muitos códigos errados na verificação em duas etapas. Os códigos impediram a entrada e a sua senha não mudou, mas quem fez isso conseguiu ler o código na sua caixa de entrada.',
        button: 'Revisar a sua segurança',
        advice:
          'Se não foi você, proteja primeiro a sua caixa de entrada (a senha dela e quem mais pode lê-la) e depois revise os seus dispositivos e a verificação em duas etapas.',
        why: 'Você recebeu esta mensagem porque códigos de verificação em duas etapas errados seguiram uma redefinição de senha da sua conta do {app}.',
        ifYou: 'Se foi você, digitando os códigos errado, não há mais nada a fazer.',
      },
    },
  },
  es: {
    dir: 'ltr',
    confirmSubject: 'Tu código de confirmación de {app}',
    confirmHeading: 'Confirma tu dirección de correo',
    confirmPreview: 'Usa el código de este correo para terminar el registro en {app}.',
    confirmIntro: 'Introduce este código para confirmar tu correo y terminar el registro:',
    confirmWhy: 'Recibes este mensaje porque alguien introdujo esta dirección para registrarse en {app}.',
    confirmIgnore: 'Si no fuiste tú, ignora este mensaje: sin el código no se crea ninguna cuenta.',
    recoverySubject: 'Tu código para restablecer la contraseña de {app}',
    recoveryHeading: 'Restablece tu contraseña',
    recoveryPreview: 'Usa el código de este correo para elegir una nueva contraseña en {app}.',
    recoveryIntro: 'Introduce este código para elegir una nueva contraseña:',
    recoveryWhy: 'Recibes este mensaje porque se pidió una nueva contraseña para esta dirección en {app}.',
    recoveryIgnore: 'Si no fuiste tú, ignora este mensaje: tu contraseña sigue siendo la misma.',
    confirmSubjectNew: 'Tu nuevo código de confirmación de {app}',
    recoverySubjectNew: 'Tu nuevo código para restablecer la contraseña de {app}',
    codeReplaces: 'Este código sustituye al que te enviamos antes, que ya no funciona.',
    codeRequested: 'Solicitado el {when} desde {browser}.',
    codeNeverShare: 'No compartas nunca el código: nadie de {app} te lo pedirá.',
    browserOn: '{browser} en {system}',
    browserUnknown: 'un navegador desconocido',
    codeExpiry: 'El código es válido durante {minutes} minutos.',
    codeExpiryOne: 'El código es válido durante 1 minuto.',
    inviteSubject: '{inviterAddress} te ha invitado a unirte a {domain} en {app}',
    inviteHeading: 'Te han invitado a {app}',
    invitePreview: 'Acepta la invitación en un plazo de {days} días para unirte a tu equipo en {app}.',
    inviteIntro: '{inviter} ({inviterAddress}) te ha invitado a unirte al equipo de {domain} en {app}.',
    inviteIntroAdmin: 'Un administrador te ha invitado a unirte a {app}.',
    inviteButton: 'Aceptar la invitación',
    linkFallback: 'O copia este enlace y pégalo en tu navegador:',
    inviteExpiry: 'La invitación es válida durante {days} días.',
    inviteWhy: 'Recibes este mensaje porque esta dirección fue invitada a {app}.',
    inviteIgnore: 'Si no la esperabas, ignora este mensaje: no se crea ninguna cuenta si no la aceptas.',
    footer: 'Enviado por {app}.',
    footerAuto: 'Este es un mensaje automático; las respuestas no se leen.',
    alarms: {
      'password-known': {
        subject: 'Alguien conoce tu contraseña de {app}',
        preview:
          'Se escribió tu contraseña correcta y después muchos códigos de dos pasos erróneos. Cambia tu contraseña.',
        intro:
          'Alguien escribió la contraseña correcta de tu cuenta de {app} y después muchos códigos erróneos en la verificación en dos pasos. Los códigos le impidieron entrar, pero tu contraseña ya no es un secreto.',
        button: 'Elegir una nueva contraseña',
        advice:
          'Elige ahora una nueva contraseña que no uses en ningún otro sitio: también cierra la sesión en todos los demás dispositivos.',
        why: 'Recibes este mensaje porque se escribieron códigos de verificación en dos pasos erróneos tras la contraseña correcta de tu cuenta de {app}.',
        ifYou: 'Si fuiste tú y te equivocaste al escribir los códigos, no tienes que hacer nada más.',
      },
      'mailbox-known': {
        subject: 'Alguien intenta restablecer tu contraseña de {app}',
        preview:
          'Se usó un código de restablecimiento enviado a esta dirección y después muchos códigos de dos pasos erróneos. Comprueba quién puede leer tu correo.',
        intro:
          'Alguien usó un código para restablecer la contraseña enviado a esta dirección y después escribió muchos códigos erróneos en la verificación en dos pasos. Los códigos le impidieron entrar y tu contraseña no ha cambiado, pero quien lo hizo pudo leer el código en tu buzón.',
        button: 'Revisar tu seguridad',
        advice:
          'Si no fuiste tú, protege primero tu buzón (la contraseña del buzón y quién más puede leerlo) y después revisa tus dispositivos y la verificación en dos pasos.',
        why: 'Recibes este mensaje porque se escribieron códigos de verificación en dos pasos erróneos tras un restablecimiento de la contraseña de tu cuenta de {app}.',
        ifYou: 'Si fuiste tú y te equivocaste al escribir los códigos, no tienes que hacer nada más.',
      },
    },
  },
  hi: {
    dir: 'ltr',
    confirmSubject: 'आपका {app} पुष्टि कोड',
    confirmHeading: 'अपने ईमेल पते की पुष्टि करें',
    confirmPreview: '{app} पर साइन‑अप पूरा करने के लिए इस ईमेल में दिया गया कोड इस्तेमाल करें।',
    confirmIntro: 'अपने ईमेल पते की पुष्टि करने और साइन‑अप पूरा करने के लिए यह कोड दर्ज करें:',
    confirmWhy: 'आपको यह संदेश इसलिए मिला है क्योंकि किसी ने {app} पर साइन‑अप करने के लिए यह पता दर्ज किया है।',
    confirmIgnore: 'अगर यह आप नहीं थे, तो इस संदेश को अनदेखा करें: कोड के बिना कोई खाता नहीं बनता।',
    recoverySubject: 'आपका {app} पासवर्ड रीसेट कोड',
    recoveryHeading: 'अपना पासवर्ड रीसेट करें',
    recoveryPreview: '{app} पर नया पासवर्ड चुनने के लिए इस ईमेल में दिया गया कोड इस्तेमाल करें।',
    recoveryIntro: 'नया पासवर्ड चुनने के लिए यह कोड दर्ज करें:',
    recoveryWhy: 'आपको यह संदेश इसलिए मिला है क्योंकि {app} पर इस पते के लिए नया पासवर्ड माँगा गया है।',
    recoveryIgnore: 'अगर यह आप नहीं थे, तो इस संदेश को अनदेखा करें: आपका पासवर्ड नहीं बदलेगा।',
    confirmSubjectNew: 'आपका नया {app} पुष्टि कोड',
    recoverySubjectNew: 'आपका नया {app} पासवर्ड रीसेट कोड',
    codeReplaces: 'यह कोड पहले भेजे गए कोड की जगह लेता है; वह कोड अब काम नहीं करता।',
    codeRequested: 'यह कोड {when} को {browser} से माँगा गया।',
    codeNeverShare: 'यह कोड किसी को न बताएँ: {app} की ओर से कोई भी इसे नहीं माँगेगा।',
    browserOn: '{system} पर {browser}',
    browserUnknown: 'एक अनजान ब्राउज़र',
    codeExpiry: 'कोड {minutes} मिनट तक काम करता है।',
    codeExpiryOne: 'कोड 1 मिनट तक काम करता है।',
    inviteSubject: '{inviterAddress} ने आपको {app} पर {domain} से जुड़ने के लिए आमंत्रित किया है',
    inviteHeading: 'आपको {app} पर आमंत्रित किया गया है',
    invitePreview: '{app} पर अपनी टीम से जुड़ने के लिए {days} दिनों के भीतर आमंत्रण स्वीकार करें।',
    inviteIntro: '{inviter} ({inviterAddress}) ने आपको {app} पर {domain} की टीम से जुड़ने के लिए आमंत्रित किया है।',
    inviteIntroAdmin: 'एक व्यवस्थापक ने आपको {app} से जुड़ने के लिए आमंत्रित किया है।',
    inviteButton: 'आमंत्रण स्वीकार करें',
    linkFallback: 'या यह लिंक कॉपी करके अपने ब्राउज़र में खोलें:',
    inviteExpiry: 'यह आमंत्रण {days} दिनों तक मान्य है।',
    inviteWhy: 'आपको यह संदेश इसलिए मिला है क्योंकि इस पते को {app} पर आमंत्रित किया गया है।',
    inviteIgnore: 'अगर आप इसकी उम्मीद नहीं कर रहे थे, तो इस संदेश को अनदेखा करें: आपके स्वीकार किए बिना कोई खाता नहीं बनता।',
    footer: '{app} द्वारा भेजा गया।',
    footerAuto: 'यह एक स्वचालित संदेश है; इसके जवाब पढ़े नहीं जाते।',
    alarms: {
      'password-known': {
        subject: 'किसी को आपका {app} पासवर्ड पता है',
        preview: 'आपका पासवर्ड सही डाला गया, फिर दो‑चरणीय सत्यापन के कई गलत कोड डाले गए। अपना पासवर्ड बदलें।',
        intro:
          'किसी ने आपके {app} खाते का सही पासवर्ड डाला, फिर दो‑चरणीय सत्यापन में कई गलत कोड डाले। कोड ने उन्हें अंदर नहीं आने दिया, लेकिन आपका पासवर्ड अब गुप्त नहीं है।',
        button: 'नया पासवर्ड चुनें',
        advice: 'अभी एक नया पासवर्ड चुनें, जिसे आप कहीं और इस्तेमाल नहीं करते: इससे बाकी सभी डिवाइस भी साइन आउट हो जाते हैं।',
        why: 'आपको यह संदेश इसलिए मिला है क्योंकि आपके {app} खाते के सही पासवर्ड के बाद दो‑चरणीय सत्यापन के गलत कोड डाले गए।',
        ifYou: 'अगर यह आप ही थे और कोड गलत टाइप हुए, तो और कुछ करने की ज़रूरत नहीं है।',
      },
      'mailbox-known': {
        subject: 'कोई आपका {app} पासवर्ड रीसेट करने की कोशिश कर रहा है',
        preview:
          'इस पते पर भेजा गया रीसेट कोड इस्तेमाल हुआ, फिर दो‑चरणीय सत्यापन के कई गलत कोड डाले गए। देखें कि आपका ईमेल कौन पढ़ सकता है।',
        intro:
          'किसी ने इस पते पर भेजा गया पासवर्ड रीसेट कोड इस्तेमाल किया, फिर दो‑चरणीय सत्यापन में कई गलत कोड डाले। कोड ने उन्हें अंदर नहीं आने दिया और आपका पासवर्ड नहीं बदला, लेकिन जिसने यह किया वह आपके मेलबॉक्स में कोड पढ़ सका।',
        button: 'अपनी सुरक्षा जाँचें',
        advice:
          'अगर यह आप नहीं थे, तो पहले अपना मेलबॉक्स सुरक्षित करें (उसका पासवर्ड, और कौन‑कौन उसे पढ़ सकता है), फिर अपने डिवाइस और दो‑चरणीय सत्यापन जाँचें।',
        why: 'आपको यह संदेश इसलिए मिला है क्योंकि आपके {app} खाते का पासवर्ड रीसेट करते समय दो‑चरणीय सत्यापन के गलत कोड डाले गए।',
        ifYou: 'अगर यह आप ही थे और कोड गलत टाइप हुए, तो और कुछ करने की ज़रूरत नहीं है।',
      },
    },
  },
  it: {
    dir: 'ltr',
    confirmSubject: 'Il tuo codice di conferma di {app}',
    confirmHeading: 'Conferma il tuo indirizzo email',
    confirmPreview: 'Usa il codice in questa email per completare la registrazione a {app}.',
    confirmIntro: 'Inserisci questo codice per confermare il tuo indirizzo e completare la registrazione:',
    confirmWhy: 'Ricevi questo messaggio perché qualcuno ha inserito questo indirizzo per registrarsi a {app}.',
    confirmIgnore: 'Se non sei stato tu, ignora questo messaggio: senza il codice non viene creato alcun account.',
    recoverySubject: 'Il tuo codice per reimpostare la password di {app}',
    recoveryHeading: 'Reimposta la password',
    recoveryPreview: 'Usa il codice in questa email per scegliere una nuova password su {app}.',
    recoveryIntro: 'Inserisci questo codice per scegliere una nuova password:',
    recoveryWhy: 'Ricevi questo messaggio perché è stata chiesta una nuova password per questo indirizzo su {app}.',
    recoveryIgnore: 'Se non sei stato tu, ignora questo messaggio: la tua password resta invariata.',
    confirmSubjectNew: 'Il tuo nuovo codice di conferma di {app}',
    recoverySubjectNew: 'Il tuo nuovo codice per reimpostare la password di {app}',
    codeReplaces: 'Questo codice sostituisce quello che ti abbiamo inviato prima, che non funziona più.',
    codeRequested: 'Richiesto il {when} da {browser}.',
    codeNeverShare: 'Non condividere mai il codice: nessuno di {app} te lo chiederà.',
    browserOn: '{browser} su {system}',
    browserUnknown: 'un browser sconosciuto',
    codeExpiry: 'Il codice è valido per {minutes} minuti.',
    codeExpiryOne: 'Il codice è valido per 1 minuto.',
    inviteSubject: '{inviterAddress} ti ha invitato a unirti a {domain} su {app}',
    inviteHeading: 'Sei stato invitato su {app}',
    invitePreview: 'Accetta l’invito entro {days} giorni per unirti al tuo team su {app}.',
    inviteIntro: '{inviter} ({inviterAddress}) ti ha invitato a unirti al team di {domain} su {app}.',
    inviteIntroAdmin: 'Un amministratore ti ha invitato a unirti a {app}.',
    inviteButton: 'Accetta l’invito',
    linkFallback: 'Oppure copia questo link nel tuo browser:',
    inviteExpiry: 'L’invito è valido per {days} giorni.',
    inviteWhy: 'Ricevi questo messaggio perché questo indirizzo è stato invitato su {app}.',
    inviteIgnore:
      'Se non te lo aspettavi, ignora questo messaggio: senza la tua accettazione non viene creato alcun account.',
    footer: 'Inviato da {app}.',
    footerAuto: 'Questo è un messaggio automatico; le risposte non vengono lette.',
    alarms: {
      'password-known': {
        subject: 'Qualcuno conosce la tua password di {app}',
        preview:
          'La tua password è stata inserita correttamente, seguita da molti codici di verifica in due passaggi errati. Cambia la password.',
        intro:
          'Qualcuno ha inserito la password corretta del tuo account {app} e poi molti codici errati nella verifica in due passaggi. I codici lo hanno tenuto fuori, ma la tua password non è più un segreto.',
        button: 'Scegli una nuova password',
        advice:
          'Scegli subito una nuova password che non usi altrove: così il tuo account esce anche da tutti gli altri dispositivi.',
        why: 'Ricevi questo messaggio perché dopo la password corretta del tuo account {app} sono stati inseriti codici di verifica in due passaggi errati.',
        ifYou: 'Se sei stato tu e hai sbagliato a digitare i codici, non devi fare altro.',
      },
      'mailbox-known': {
        subject: 'Qualcuno sta cercando di reimpostare la tua password di {app}',
        preview:
          'È stato usato un codice di reimpostazione inviato a questo indirizzo, seguito da molti codici di verifica in due passaggi errati. Controlla chi può leggere la tua email.',
        intro:
          'Qualcuno ha usato un codice per reimpostare la password inviato a questo indirizzo e poi ha inserito molti codici errati nella verifica in due passaggi. I codici lo hanno tenuto fuori e la tua password non è cambiata, ma chi è stato ha potuto leggere il codice nella tua casella di posta.',
        button: 'Controlla la tua sicurezza',
        advice:
          'Se non sei stato tu, proteggi prima la tua casella di posta (la sua password e chi altro può leggerla), poi controlla i tuoi dispositivi e la verifica in due passaggi.',
        why: 'Ricevi questo messaggio perché dopo una reimpostazione della password del tuo account {app} sono stati inseriti codici di verifica in due passaggi errati.',
        ifYou: 'Se sei stato tu e hai sbagliato a digitare i codici, non devi fare altro.',
      },
    },
  },
};
