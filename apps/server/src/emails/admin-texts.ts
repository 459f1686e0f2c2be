import type { AccessRequestReason, Language } from '@suite/contract';

/**
 * The domain administrator's mails: a request for access (to the domain's administrators, with the
 * approve/refuse link), its outcome (to the person who asked), and a proven domain whose DNS record
 * vanished (to the administrators). `{app}`, `{domain}`, `{requester}`, `{reason}`, `{message}` and
 * `{date}`, `{count}` and `{cap}` are filled in by render; `{requester}` and `{message}` are what an anonymous person typed and
 * are never the first thing read (the subject names the domain).
 */
export type AdminMail = 'access-request' | 'access-digest' | 'access-approved' | 'access-refused' | 'claim-vanished';

export interface AdminMailTexts {
  subject: Record<AdminMail, string>;
  intro: Record<AdminMail, string>;
  button: Record<AdminMail, string>;
  validity: Record<AdminMail, string>;
  why: Record<AdminMail, string>;
  preview: string;
  ignore: string;
  reason: Record<AccessRequestReason, string>;
  /** Introduces the person's own words (quoted after it). */
  theyWrote: string;
}

export const ADMIN_MAIL_TEXTS: Record<Language, AdminMailTexts> = {
  en: {
    subject: {
      'access-request': 'Someone asks for access to {app} at {domain}',
      'access-digest': 'Requests for access to {app} at {domain} wait in Administration',
      'access-approved': 'Your request for {app} at {domain} was approved',
      'access-refused': 'Your request for {app} at {domain} was refused',
      'claim-vanished': 'The DNS record that proves {domain} is gone',
    },
    intro: {
      'access-request': '{requester} asks for access to {app} ({reason}). Approve or refuse it in Administration.',
      'access-digest':
        '{count} requests for access to {app} at {domain} wait in Administration. More than {cap} came today, so the next ones are not mailed one by one until tomorrow: look at them in Administration.',
      'access-approved': 'An administrator of {domain} approved your request. You can continue now.',
      'access-refused':
        'An administrator of {domain} refused your request. Ask them directly if you think this is a mistake.',
      'claim-vanished':
        'The TXT record _suite-challenge.{domain} no longer holds the value that made an administrator of {domain}. Put it back, or the administrator role it gave ends on {date}.',
    },
    button: {
      'access-request': 'Approve or refuse',
      'access-digest': 'Open Administration',
      'access-approved': 'Continue',
      'access-refused': 'Open {app}',
      'claim-vanished': 'Open Administration',
    },
    validity: {
      'access-request': 'The link works once, for 7 days. The request also waits in Administration.',
      'access-digest': 'Nothing is approved or refused without you.',
      'access-approved': 'Use the same address you asked with.',
      'access-refused': 'Nothing else changed.',
      'claim-vanished': 'We check the record every day.',
    },
    why: {
      'access-request': 'You are receiving this because you administer {domain}.',
      'access-digest': 'You are receiving this because you administer {domain}.',
      'access-approved': 'You are receiving this because you asked for access with this address.',
      'access-refused': 'You are receiving this because you asked for access with this address.',
      'claim-vanished': 'You are receiving this because you administer {domain}.',
    },
    preview: 'About {app} at {domain}.',
    ignore: 'If this email is not for you, you can ignore it.',
    reason: {
      domain_inactive: 'the domain is not active',
      sso_unavailable: 'single sign‑on is not set up or not working',
      invite_only: 'sign-up is by invitation only',
      approval: 'a new account needs approval',
    },
    theyWrote: 'They wrote:',
  },
  pt: {
    subject: {
      'access-request': 'Alguém pede acesso ao {app} em {domain}',
      'access-digest': 'Pedidos de acesso ao {app} em {domain} aguardam em Administração',
      'access-approved': 'Seu pedido para o {app} em {domain} foi aprovado',
      'access-refused': 'Seu pedido para o {app} em {domain} foi recusado',
      'claim-vanished': 'O registro DNS que comprova {domain} sumiu',
    },
    intro: {
      'access-request': '{requester} pede acesso ao {app} ({reason}). Aprove ou recuse em Administração.',
      'access-digest':
        '{count} pedidos de acesso ao {app} em {domain} aguardam em Administração. Chegaram mais de {cap} hoje, então os próximos não são enviados um a um por e‑mail até amanhã: veja-os em Administração.',
      'access-approved': 'Um administrador de {domain} aprovou seu pedido. Você já pode continuar.',
      'access-refused': 'Um administrador de {domain} recusou seu pedido. Fale com ele se achar que é um engano.',
      'claim-vanished':
        'O registro TXT _suite-challenge.{domain} não contém mais o valor que tornou alguém administrador de {domain}. Restaure-o, ou essa função de administrador termina em {date}.',
    },
    button: {
      'access-request': 'Aprovar ou recusar',
      'access-digest': 'Abrir a Administração',
      'access-approved': 'Continuar',
      'access-refused': 'Abrir o {app}',
      'claim-vanished': 'Abrir a Administração',
    },
    validity: {
      'access-request': 'O link funciona uma vez, por 7 dias. O pedido também aguarda em Administração.',
      'access-digest': 'Nada é aprovado ou recusado sem você.',
      'access-approved': 'Use o mesmo endereço com que fez o pedido.',
      'access-refused': 'Nada mais mudou.',
      'claim-vanished': 'Verificamos o registro todos os dias.',
    },
    why: {
      'access-request': 'Você recebeu esta mensagem porque administra {domain}.',
      'access-digest': 'Você recebeu esta mensagem porque administra {domain}.',
      'access-approved': 'Você recebeu esta mensagem porque pediu acesso com este endereço.',
      'access-refused': 'Você recebeu esta mensagem porque pediu acesso com este endereço.',
      'claim-vanished': 'Você recebeu esta mensagem porque administra {domain}.',
    },
    preview: 'Sobre o {app} em {domain}.',
    ignore: 'Se este e‑mail não é para você, pode ignorá-lo.',
    reason: {
      domain_inactive: 'o domínio não está ativo',
      sso_unavailable: 'o login único não está configurado ou não funciona',
      invite_only: 'o cadastro é somente por convite',
      approval: 'uma nova conta precisa de aprovação',
    },
    theyWrote: 'A pessoa escreveu:',
  },
  es: {
    subject: {
      'access-request': 'Alguien pide acceso a {app} en {domain}',
      'access-digest': 'Solicitudes de acceso a {app} en {domain} esperan en Administración',
      'access-approved': 'Tu solicitud para {app} en {domain} fue aprobada',
      'access-refused': 'Tu solicitud para {app} en {domain} fue rechazada',
      'claim-vanished': 'El registro DNS que verifica {domain} ha desaparecido',
    },
    intro: {
      'access-request': '{requester} pide acceso a {app} ({reason}). Apruébalo o recházalo en Administración.',
      'access-digest':
        '{count} solicitudes de acceso a {app} en {domain} esperan en Administración. Hoy llegaron más de {cap}, así que las siguientes no se envían una a una por correo hasta mañana: revísalas en Administración.',
      'access-approved': 'Un administrador de {domain} aprobó tu solicitud. Ya puedes continuar.',
      'access-refused':
        'Un administrador de {domain} rechazó tu solicitud. Si crees que es un error, pregúntale directamente.',
      'claim-vanished':
        'El registro TXT _suite-challenge.{domain} ya no contiene el valor que hizo a alguien administrador de {domain}. Vuelve a ponerlo, o ese rol de administrador termina el {date}.',
    },
    button: {
      'access-request': 'Aprobar o rechazar',
      'access-digest': 'Abrir Administración',
      'access-approved': 'Continuar',
      'access-refused': 'Abrir {app}',
      'claim-vanished': 'Abrir Administración',
    },
    validity: {
      'access-request': 'El enlace funciona una vez, durante 7 días. La solicitud también espera en Administración.',
      'access-digest': 'Nada se aprueba ni se rechaza sin ti.',
      'access-approved': 'Usa la misma dirección con la que lo pediste.',
      'access-refused': 'No ha cambiado nada más.',
      'claim-vanished': 'Comprobamos el registro cada día.',
    },
    why: {
      'access-request': 'Recibes este mensaje porque administras {domain}.',
      'access-digest': 'Recibes este mensaje porque administras {domain}.',
      'access-approved': 'Recibes este mensaje porque pediste acceso con esta dirección.',
      'access-refused': 'Recibes este mensaje porque pediste acceso con esta dirección.',
      'claim-vanished': 'Recibes este mensaje porque administras {domain}.',
    },
    preview: 'Sobre {app} en {domain}.',
    ignore: 'Si este correo no es para ti, puedes ignorarlo.',
    reason: {
      domain_inactive: 'el dominio no está activo',
      sso_unavailable: 'el inicio de sesión único no está configurado o no funciona',
      invite_only: 'el registro es solo por invitación',
      approval: 'una cuenta nueva necesita aprobación',
    },
    theyWrote: 'Escribió:',
  },
  hi: {
    subject: {
      'access-request': '{domain} पर {app} के लिए कोई पहुँच माँग रहा है',
      'access-digest': '{domain} पर {app} के लिए पहुँच के अनुरोध प्रशासन में प्रतीक्षा कर रहे हैं',
      'access-approved': '{domain} पर {app} के लिए आपका अनुरोध स्वीकृत हुआ',
      'access-refused': '{domain} पर {app} के लिए आपका अनुरोध अस्वीकृत हुआ',
      'claim-vanished': '{domain} को सिद्ध करने वाला DNS रिकॉर्ड हट गया है',
    },
    intro: {
      'access-request': '{requester} {app} के लिए पहुँच माँग रहे हैं ({reason})। प्रशासन में स्वीकृत या अस्वीकृत करें।',
      'access-digest':
        '{domain} पर {app} के लिए पहुँच के {count} अनुरोध प्रशासन में प्रतीक्षा कर रहे हैं। आज {cap} से अधिक अनुरोध आए, इसलिए कल तक अगले अनुरोध एक-एक करके ईमेल नहीं किए जाएँगे: उन्हें प्रशासन में देखें।',
      'access-approved': '{domain} के एक व्यवस्थापक ने आपका अनुरोध स्वीकृत किया। अब आप आगे बढ़ सकते हैं।',
      'access-refused': '{domain} के एक व्यवस्थापक ने आपका अनुरोध अस्वीकृत किया। अगर आपको लगता है कि यह गलती है, तो उनसे सीधे पूछें।',
      'claim-vanished':
        'TXT रिकॉर्ड _suite-challenge.{domain} में अब वह मान नहीं है जिससे कोई {domain} का व्यवस्थापक बना था। उसे वापस लगाएँ, वरना वह व्यवस्थापक भूमिका {date} को समाप्त हो जाएगी।',
    },
    button: {
      'access-request': 'स्वीकृत या अस्वीकृत करें',
      'access-digest': 'प्रशासन खोलें',
      'access-approved': 'जारी रखें',
      'access-refused': '{app} खोलें',
      'claim-vanished': 'प्रशासन खोलें',
    },
    validity: {
      'access-request': 'यह लिंक एक बार, 7 दिनों तक काम करता है। अनुरोध प्रशासन में भी प्रतीक्षा करता है।',
      'access-digest': 'आपके बिना कुछ भी स्वीकृत या अस्वीकृत नहीं होता।',
      'access-approved': 'वही पता इस्तेमाल करें जिससे आपने अनुरोध किया था।',
      'access-refused': 'और कुछ नहीं बदला।',
      'claim-vanished': 'हम हर दिन रिकॉर्ड जाँचते हैं।',
    },
    why: {
      'access-request': 'आपको यह संदेश इसलिए मिला है क्योंकि आप {domain} के व्यवस्थापक हैं।',
      'access-digest': 'आपको यह संदेश इसलिए मिला है क्योंकि आप {domain} के व्यवस्थापक हैं।',
      'access-approved': 'आपको यह संदेश इसलिए मिला है क्योंकि आपने इस पते से पहुँच माँगी थी।',
      'access-refused': 'आपको यह संदेश इसलिए मिला है क्योंकि आपने इस पते से पहुँच माँगी थी।',
      'claim-vanished': 'आपको यह संदेश इसलिए मिला है क्योंकि आप {domain} के व्यवस्थापक हैं।',
    },
    preview: '{domain} पर {app} के बारे में।',
    ignore: 'अगर यह ईमेल आपके लिए नहीं है, तो आप इसे अनदेखा कर सकते हैं।',
    reason: {
      domain_inactive: 'डोमेन सक्रिय नहीं है',
      sso_unavailable: 'सिंगल साइन‑ऑन सेट नहीं है या काम नहीं कर रहा',
      invite_only: 'साइन‑अप केवल आमंत्रण से है',
      approval: 'नए खाते को स्वीकृति चाहिए',
    },
    theyWrote: 'उन्होंने लिखा:',
  },
  it: {
    subject: {
      'access-request': 'Qualcuno chiede l’accesso a {app} su {domain}',
      'access-digest': 'Richieste di accesso a {app} su {domain} attendono in Amministrazione',
      'access-approved': 'La tua richiesta per {app} su {domain} è stata approvata',
      'access-refused': 'La tua richiesta per {app} su {domain} è stata rifiutata',
      'claim-vanished': 'Il record DNS che verifica {domain} non c’è più',
    },
    intro: {
      'access-request': '{requester} chiede l’accesso a {app} ({reason}). Approvala o rifiutala in Amministrazione.',
      'access-digest':
        '{count} richieste di accesso a {app} su {domain} attendono in Amministrazione. Oggi ne sono arrivate più di {cap}, quindi fino a domani le prossime non vengono inviate una per una per email: guardale in Amministrazione.',
      'access-approved': 'Un amministratore di {domain} ha approvato la tua richiesta. Ora puoi continuare.',
      'access-refused':
        'Un amministratore di {domain} ha rifiutato la tua richiesta. Se pensi che sia un errore, chiediglielo direttamente.',
      'claim-vanished':
        'Il record TXT _suite-challenge.{domain} non contiene più il valore che ha reso qualcuno amministratore di {domain}. Ripristinalo, altrimenti quel ruolo di amministratore termina il {date}.',
    },
    button: {
      'access-request': 'Approva o rifiuta',
      'access-digest': 'Apri Amministrazione',
      'access-approved': 'Continua',
      'access-refused': 'Apri {app}',
      'claim-vanished': 'Apri Amministrazione',
    },
    validity: {
      'access-request': 'Il link funziona una volta, per 7 giorni. La richiesta attende anche in Amministrazione.',
      'access-digest': 'Niente viene approvato o rifiutato senza di te.',
      'access-approved': 'Usa lo stesso indirizzo con cui hai fatto la richiesta.',
      'access-refused': 'Non è cambiato nient’altro.',
      'claim-vanished': 'Controlliamo il record ogni giorno.',
    },
    why: {
      'access-request': 'Ricevi questo messaggio perché amministri {domain}.',
      'access-digest': 'Ricevi questo messaggio perché amministri {domain}.',
      'access-approved': 'Ricevi questo messaggio perché hai chiesto l’accesso con questo indirizzo.',
      'access-refused': 'Ricevi questo messaggio perché hai chiesto l’accesso con questo indirizzo.',
      'claim-vanished': 'Ricevi questo messaggio perché amministri {domain}.',
    },
    preview: 'Riguarda {app} su {domain}.',
    ignore: 'Se questa email non è per te, puoi ignorarla.',
    reason: {
      domain_inactive: 'il dominio non è attivo',
      sso_unavailable: 'il single sign‑on non è configurato o non funziona',
      invite_only: 'la registrazione è solo su invito',
      approval: 'un nuovo account richiede l’approvazione',
    },
    theyWrote: 'Ha scritto:',
  },
};
