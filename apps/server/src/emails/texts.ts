import type { Language } from '@suite/contract';

/** Every string a mail shows, per language. `{app}`, `{code}`, `{minutes}`, `{inviter}` are filled in by render. */
export interface MailTexts {
  confirmSubject: string;
  confirmIntro: string;
  recoverySubject: string;
  recoveryIntro: string;
  codeExpiry: string;
  codeIgnore: string;
  inviteSubject: string;
  inviteIntro: string;
  inviteButton: string;
  inviteExpiry: string;
  inviteIgnore: string;
  linkFallback: string;
  footer: string;
}

export const MAIL_TEXTS: Record<Language, MailTexts> = {
  en: {
    confirmSubject: '{code} is your {app} confirmation code',
    confirmIntro: 'Enter this code to confirm your e-mail address and finish signing up:',
    recoverySubject: '{code} is your {app} password recovery code',
    recoveryIntro: 'Enter this code to choose a new password:',
    codeExpiry: 'The code is valid for {minutes} minutes.',
    codeIgnore: 'If you did not ask for it, you can ignore this message.',
    inviteSubject: '{inviter} invited you to {app}',
    inviteIntro: '{inviter} invited you to join the team on {app}.',
    inviteButton: 'Accept the invitation',
    inviteExpiry: 'The invitation is valid for {days} days.',
    inviteIgnore: 'If you were not expecting it, you can ignore this message.',
    linkFallback: 'If the button does not work, open this address:',
    footer: 'Sent by {app}.',
  },
  pt: {
    confirmSubject: '{code} é o seu código de confirmação do {app}',
    confirmIntro: 'Digite este código para confirmar o seu e-mail e concluir o cadastro:',
    recoverySubject: '{code} é o seu código de recuperação de senha do {app}',
    recoveryIntro: 'Digite este código para escolher uma nova senha:',
    codeExpiry: 'O código vale por {minutes} minutos.',
    codeIgnore: 'Se você não pediu, pode ignorar esta mensagem.',
    inviteSubject: '{inviter} convidou você para o {app}',
    inviteIntro: '{inviter} convidou você para entrar na equipe no {app}.',
    inviteButton: 'Aceitar o convite',
    inviteExpiry: 'O convite vale por {days} dias.',
    inviteIgnore: 'Se você não esperava por isso, pode ignorar esta mensagem.',
    linkFallback: 'Se o botão não funcionar, abra este endereço:',
    footer: 'Enviado por {app}.',
  },
  es: {
    confirmSubject: '{code} es tu código de confirmación de {app}',
    confirmIntro: 'Introduce este código para confirmar tu correo y terminar el registro:',
    recoverySubject: '{code} es tu código de recuperación de contraseña de {app}',
    recoveryIntro: 'Introduce este código para elegir una nueva contraseña:',
    codeExpiry: 'El código es válido durante {minutes} minutos.',
    codeIgnore: 'Si no lo has pedido, puedes ignorar este mensaje.',
    inviteSubject: '{inviter} te ha invitado a {app}',
    inviteIntro: '{inviter} te ha invitado a unirte al equipo en {app}.',
    inviteButton: 'Aceptar la invitación',
    inviteExpiry: 'La invitación es válida durante {days} días.',
    inviteIgnore: 'Si no la esperabas, puedes ignorar este mensaje.',
    linkFallback: 'Si el botón no funciona, abre esta dirección:',
    footer: 'Enviado por {app}.',
  },
  hi: {
    confirmSubject: '{code} आपका {app} पुष्टि कोड है',
    confirmIntro: 'अपना ई-मेल पता पुष्टि करने और साइन-अप पूरा करने के लिए यह कोड दर्ज करें:',
    recoverySubject: '{code} आपका {app} पासवर्ड रिकवरी कोड है',
    recoveryIntro: 'नया पासवर्ड चुनने के लिए यह कोड दर्ज करें:',
    codeExpiry: 'यह कोड {minutes} मिनट तक मान्य है।',
    codeIgnore: 'अगर आपने इसका अनुरोध नहीं किया है, तो इस संदेश को अनदेखा करें।',
    inviteSubject: '{inviter} ने आपको {app} पर आमंत्रित किया है',
    inviteIntro: '{inviter} ने आपको {app} पर टीम से जुड़ने के लिए आमंत्रित किया है।',
    inviteButton: 'आमंत्रण स्वीकार करें',
    inviteExpiry: 'यह आमंत्रण {days} दिनों तक मान्य है।',
    inviteIgnore: 'अगर आप इसकी उम्मीद नहीं कर रहे थे, तो इस संदेश को अनदेखा करें।',
    linkFallback: 'अगर बटन काम न करे, तो यह पता खोलें:',
    footer: '{app} द्वारा भेजा गया।',
  },
  it: {
    confirmSubject: '{code} è il tuo codice di conferma di {app}',
    confirmIntro: 'Inserisci questo codice per confermare il tuo indirizzo e completare la registrazione:',
    recoverySubject: '{code} è il tuo codice di recupero password di {app}',
    recoveryIntro: 'Inserisci questo codice per scegliere una nuova password:',
    codeExpiry: 'Il codice è valido per {minutes} minuti.',
    codeIgnore: 'Se non lo hai richiesto, puoi ignorare questo messaggio.',
    inviteSubject: '{inviter} ti ha invitato su {app}',
    inviteIntro: '{inviter} ti ha invitato a unirti al team su {app}.',
    inviteButton: "Accetta l'invito",
    inviteExpiry: "L'invito è valido per {days} giorni.",
    inviteIgnore: 'Se non te lo aspettavi, puoi ignorare questo messaggio.',
    linkFallback: 'Se il pulsante non funziona, apri questo indirizzo:',
    footer: 'Inviato da {app}.',
  },
};
