import type { Language } from '@suite/contract';

/**
 * A meeting invitation: the host invited this address; its personal link lets the invitee past
 * the lobby. `{app}`, `{host}` (the host's typed name, never alone where it is read first), `{hostAddress}`
 * and `{title}` (the meeting's name) are filled in by render.
 */
export interface MeetingInviteTexts {
  subject: string;
  preview: string;
  heading: string;
  intro: string;
  button: string;
  validity: string;
  why: string;
  ignore: string;
}

export const MEETING_INVITE_TEXTS: Record<Language, MeetingInviteTexts> = {
  en: {
    subject: '{hostAddress} invited you to a meeting: {title}',
    preview: 'Join “{title}” on {app}: your personal link lets you straight in.',
    heading: 'You are invited to “{title}”',
    intro: '{host} ({hostAddress}) invited you to the meeting “{title}” on {app}.',
    button: 'Join the meeting',
    validity: 'This link is yours: it lets you in without asking once the host has started the meeting.',
    why: 'You are receiving this because {hostAddress} invited this address.',
    ignore: 'If you do not want to join, ignore this message. Do not forward it: anyone with the link gets in.',
  },
  pt: {
    subject: '{hostAddress} convidou você para uma reunião: {title}',
    preview: 'Entre em “{title}” no {app}: seu link pessoal deixa você entrar direto.',
    heading: 'Você foi convidado para “{title}”',
    intro: '{host} ({hostAddress}) convidou você para a reunião “{title}” no {app}.',
    button: 'Entrar na reunião',
    validity: 'Este link é seu: ele deixa você entrar sem pedir assim que o anfitrião iniciar a reunião.',
    why: 'Você recebeu esta mensagem porque {hostAddress} convidou este endereço.',
    ignore: 'Se não quiser participar, ignore esta mensagem. Não a encaminhe: quem tiver o link entra.',
  },
  es: {
    subject: '{hostAddress} te invitó a una reunión: {title}',
    preview: 'Entra en “{title}” en {app}: tu enlace personal te deja pasar directamente.',
    heading: 'Te han invitado a “{title}”',
    intro: '{host} ({hostAddress}) te invitó a la reunión “{title}” en {app}.',
    button: 'Entrar en la reunión',
    validity: 'Este enlace es tuyo: te deja entrar sin pedirlo en cuanto el anfitrión empiece la reunión.',
    why: 'Recibes este mensaje porque {hostAddress} invitó a esta dirección.',
    ignore: 'Si no quieres participar, ignora este mensaje. No lo reenvíes: quien tenga el enlace entra.',
  },
  hi: {
    subject: '{hostAddress} ने आपको एक मीटिंग में आमंत्रित किया: {title}',
    preview: '{app} पर “{title}” में शामिल हों: आपका निजी लिंक आपको सीधे अंदर ले जाता है।',
    heading: 'आपको “{title}” में आमंत्रित किया गया है',
    intro: '{host} ({hostAddress}) ने आपको {app} पर मीटिंग “{title}” में आमंत्रित किया है।',
    button: 'मीटिंग में शामिल हों',
    validity: 'यह लिंक आपका है: होस्ट के मीटिंग शुरू करते ही यह आपको बिना अनुरोध किए अंदर ले जाता है।',
    why: 'आपको यह संदेश इसलिए मिला है क्योंकि {hostAddress} ने इस पते को आमंत्रित किया है।',
    ignore: 'अगर आप शामिल नहीं होना चाहते, तो इस संदेश को अनदेखा करें। इसे आगे न भेजें: लिंक वाला कोई भी अंदर आ सकता है।',
  },
  it: {
    subject: '{hostAddress} ti ha invitato a una riunione: {title}',
    preview: 'Partecipa a “{title}” su {app}: il tuo link personale ti fa entrare subito.',
    heading: 'Sei stato invitato a “{title}”',
    intro: '{host} ({hostAddress}) ti ha invitato alla riunione “{title}” su {app}.',
    button: 'Partecipa alla riunione',
    validity: 'Questo link è tuo: ti fa entrare senza chiedere appena l’organizzatore avvia la riunione.',
    why: 'Ricevi questo messaggio perché {hostAddress} ha invitato questo indirizzo.',
    ignore: 'Se non vuoi partecipare, ignora questo messaggio. Non inoltrarlo: chiunque abbia il link entra.',
  },
};
