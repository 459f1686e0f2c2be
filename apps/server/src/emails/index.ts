import {
  ACCESS_REQUEST_MAILS_PER_DOMAIN,
  CODE_TTL_MS,
  LANGUAGES,
  LANGUAGE_TAGS,
  cleanDisplayName,
  emailDomain,
  pageUrl,
  textLength,
  type AccessRequestReason,
  type Language,
} from '@suite/contract';
import { EMAIL_LOGO_PATH, type MailContent } from './model.js';
import { browserOf } from './browser.js';
import { NOTICE_TEXTS, type Notice } from './notice-texts.js';
import { MAIL_TEXTS, type MailTexts, type SecondFactorAlarmKind } from './texts.js';
import { MEETING_INVITE_TEXTS } from './meeting-invite-texts.js';
import { ADMIN_MAIL_TEXTS, type AdminMail } from './admin-texts.js';

export type { Notice } from './notice-texts.js';
export type { SecondFactorAlarmKind } from './texts.js';

/** What the services ask to send; rendered into subject/text/html when queued. */
export type MailMessage =
  | {
      kind: 'confirm-code' | 'recovery-code';
      to: string;
      language: Language;
      code: string;
      /** Set when this code replaced a pending one: when it was asked for and the asking request's User-Agent. */
      resent?: { at: number; userAgent: string };
    }
  | {
      kind: 'invite';
      to: string;
      language: Language;
      /** The inviting account: its typed name and its (confirmed) address; null: an administrator (admin CLI). */
      inviter: { name: string; address: string } | null;
      inviteToken: string;
      days: number;
    }
  /** A security notice: a passkey added, two-step verification on/off, a new password. */
  | {
      kind: Notice;
      to: string;
      language: Language;
      /** The single-use "this wasn't me" token of a factor change: the mail's link carries it. */
      revertToken?: string;
    }
  /**
   * Wrong two-step codes kept following the right password, or a reset code from the mailbox
   * (plugins/throttle.ts's alarm).
   */
  | { kind: SecondFactorAlarmKind; to: string; language: Language }
  /** A meeting invitation: `link` is the invitee's personal link past the lobby. */
  | {
      kind: 'meeting-invite';
      to: string;
      language: Language;
      host: { name: string; address: string };
      title: string;
      link: string;
    }
  /** The domain administrator's console (modules/admin): a request, its outcome, a vanished DNS proof. */
  | {
      kind: AdminMail;
      to: string;
      language: Language;
      domain: string;
      /** The button's address (a request's approve/refuse link carries its token in the fragment). */
      link: string;
      requester?: string;
      reason?: AccessRequestReason;
      message?: string | null;
      /** claim-vanished: when the claim ends (epoch ms). */
      until?: number;
      /** access-digest: how many requests wait in the console. */
      count?: number;
    };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export interface MailSite {
  appTitle: string;
  /** Every link is built from this (PUBLIC_URL), never from a request's Host header. */
  publicUrl: string;
  /** Code lifetime the mail announces (config CODE_TTL_SECONDS). */
  codeTtlMs?: number;
}

export function inviteUrl(site: MailSite, inviteToken: string): string {
  return `${site.publicUrl}${pageUrl('confirmInvite', {}, { inviteToken })}`;
}

/** Longest inviter name a subject or sentence shows; a longer one ends in '…'. */
const NAME_MAX = 64;

/** The inviter's name as a mail shows it: the contract's display-name rule (no control, format or direction characters, one line), at most 64 characters. */
function sanitizeName(name: string, fallback: string): string {
  const clean = cleanDisplayName(name, Number.POSITIVE_INFINITY);
  if (!clean) return fallback;
  return textLength(clean) > NAME_MAX ? `${cleanDisplayName(clean, NAME_MAX - 1)}…` : clean;
}

export function mailContent(message: MailMessage, site: MailSite): MailContent {
  const language: Language = LANGUAGES.includes(message.language) ? message.language : 'en';
  const t = MAIL_TEXTS[language];
  const vars: Record<string, string> = {
    app: site.appTitle,
    minutes: String(Math.max(1, Math.round((site.codeTtlMs ?? CODE_TTL_MS) / 60_000))),
  };
  if (message.kind === 'invite') {
    if (message.inviter) {
      vars.inviterAddress = message.inviter.address;
      vars.inviter = sanitizeName(message.inviter.name, message.inviter.address);
    }
    vars.domain = emailDomain(message.to);
    vars.days = String(message.days);
  }
  if (message.kind === 'meeting-invite') {
    vars.hostAddress = message.host.address;
    vars.host = sanitizeName(message.host.name, message.host.address);
    vars.title = sanitizeName(message.title, message.host.address);
  }
  const fill = (template: string) => template.replace(/\{(\w+)\}/g, (whole, key: string) => vars[key] ?? whole);
  const common = {
    language,
    lang: LANGUAGE_TAGS[language],
    dir: t.dir,
    appTitle: site.appTitle,
    publicUrl: site.publicUrl,
    logoUrl: `${site.publicUrl}${EMAIL_LOGO_PATH}`,
    footer: fill(t.footer),
    footerAuto: fill(t.footerAuto),
  };
  if (message.kind === 'password-known' || message.kind === 'mailbox-known') {
    const a = t.alarms[message.kind];
    return {
      ...common,
      subject: fill(a.subject),
      preview: fill(a.preview),
      heading: fill(a.subject),
      intro: fill(a.intro),
      action: {
        label: fill(a.button),
        // A known password: straight to where a new one is chosen (the signed-in home has no password
        // form). A read mailbox: the Security section, where devices and two-step verification are.
        url:
          message.kind === 'password-known'
            ? `${site.publicUrl}${pageUrl('user-recovery-password')}`
            : `${site.publicUrl}${pageUrl('homeSection', { section: 'security' })}`,
        fallback: fill(t.linkFallback),
      },
      validity: fill(a.advice),
      why: fill(a.why),
      ignore: fill(a.ifYou),
    };
  }
  if (message.kind === 'meeting-invite') {
    const m = MEETING_INVITE_TEXTS[language];
    return {
      ...common,
      subject: fill(m.subject),
      preview: fill(m.preview),
      heading: fill(m.heading),
      intro: fill(m.intro),
      action: { label: fill(m.button), url: message.link, fallback: fill(t.linkFallback) },
      validity: fill(m.validity),
      why: fill(m.why),
      ignore: fill(m.ignore),
    };
  }
  if (
    message.kind === 'access-request' ||
    message.kind === 'access-digest' ||
    message.kind === 'access-approved' ||
    message.kind === 'access-refused' ||
    message.kind === 'claim-vanished'
  ) {
    return adminMail(message, site, common, vars);
  }
  if (message.kind !== 'invite' && message.kind !== 'confirm-code' && message.kind !== 'recovery-code') {
    const n = NOTICE_TEXTS[language];
    // The token rides in the fragment: never sent to a server, so no access log keeps it.
    const token = 'revertToken' in message ? message.revertToken : undefined;
    const notMe = token ? { label: fill(n.notMeButton), url: `${site.publicUrl}${pageUrl('notMe')}#${token}` } : null;
    return {
      ...common,
      subject: fill(n.subject[message.kind]),
      preview: fill(n.preview),
      heading: fill(n.subject[message.kind]),
      intro: fill(n.intro[message.kind]),
      action: notMe
        ? { ...notMe, fallback: fill(t.linkFallback) }
        : {
            label: fill(n.button),
            url: `${site.publicUrl}${pageUrl('homeSection', { section: 'security' })}`,
            fallback: fill(t.linkFallback),
          },
      // What to do if it was not you comes right after the button, in the body's type; the reassurance
      // for the person who made the change closes the mail, muted.
      validity: fill(notMe ? n.notMeWhat : n.notYou),
      why: fill(n.why),
      ignore: fill(n.ifYou),
    };
  }
  if (message.kind === 'invite') {
    return {
      ...common,
      // The typed name never stands alone where it is read first: the subject names the inviter's address.
      subject: fill(message.inviter ? t.inviteSubject : t.inviteHeading),
      preview: fill(t.invitePreview),
      heading: fill(t.inviteHeading),
      intro: fill(message.inviter ? t.inviteIntro : t.inviteIntroAdmin),
      action: {
        label: fill(t.inviteButton),
        url: inviteUrl(site, message.inviteToken),
        fallback: fill(t.linkFallback),
      },
      validity: fill(t.inviteExpiry),
      why: fill(t.inviteWhy),
      ignore: fill(t.inviteIgnore),
    };
  }
  const confirm = message.kind === 'confirm-code';
  const resent = message.resent;
  const ignore = fill(confirm ? t.confirmIgnore : t.recoveryIgnore);
  if (resent) {
    vars.when = new Intl.DateTimeFormat(common.lang, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'UTC',
    }).format(resent.at);
    vars.when += ' UTC';
    vars.browser = browserName(t, resent.userAgent);
  }
  return {
    ...common,
    subject: fill(
      confirm ? (resent ? t.confirmSubjectNew : t.confirmSubject) : resent ? t.recoverySubjectNew : t.recoverySubject,
    ),
    preview: fill(confirm ? t.confirmPreview : t.recoveryPreview),
    heading: fill(confirm ? t.confirmHeading : t.recoveryHeading),
    intro: fill(confirm ? t.confirmIntro : t.recoveryIntro),
    code: message.code,
    validity: fill(vars.minutes === '1' ? t.codeExpiryOne : t.codeExpiry),
    why: fill(confirm ? t.confirmWhy : t.recoveryWhy),
    ignore: resent ? `${ignore} ${fill(t.codeNeverShare)}` : ignore,
    ...(resent ? { replaces: fill(t.codeReplaces), requested: fill(t.codeRequested) } : {}),
  };
}

/** The console's mails: texts of admin-texts.ts; the person's own words only after the intro, quoted. */
function adminMail(
  message: Extract<MailMessage, { kind: AdminMail }>,
  site: MailSite,
  common: Omit<MailContent, 'subject' | 'preview' | 'heading' | 'intro' | 'validity' | 'why' | 'ignore'>,
  vars: Record<string, string>,
): MailContent {
  const a = ADMIN_MAIL_TEXTS[common.language];
  const t = MAIL_TEXTS[common.language];
  const values: Record<string, string> = {
    ...vars,
    domain: message.domain,
    requester: message.requester ?? '',
    count: String(message.count ?? ''),
    cap: String(ACCESS_REQUEST_MAILS_PER_DOMAIN),
    reason: message.reason ? a.reason[message.reason] : '',
    date: message.until
      ? new Intl.DateTimeFormat(common.lang, { dateStyle: 'long', timeZone: 'UTC' }).format(message.until)
      : '',
  };
  const fill = (template: string) => template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
  const said = message.message ? ` ${a.theyWrote} “${cleanDisplayName(message.message, 500)}”` : '';
  return {
    ...common,
    subject: fill(a.subject[message.kind]),
    preview: fill(a.preview),
    heading: fill(a.subject[message.kind]),
    intro: `${fill(a.intro[message.kind])}${said}`,
    action: { label: fill(a.button[message.kind]), url: message.link, fallback: fill(t.linkFallback) },
    validity: fill(a.validity[message.kind]),
    why: fill(a.why[message.kind]),
    ignore: fill(a.ignore),
  };
}

/** "Firefox on Windows", "Safari", "an unknown browser on Linux": fixed names only (browser.ts). */
function browserName(t: MailTexts, userAgent: string): string {
  const { browser, system } = browserOf(userAgent);
  const name = browser ?? t.browserUnknown;
  return system ? t.browserOn.replace('{browser}', name).replace('{system}', system) : name;
}

/** The plain-text part: the same content as the HTML, in reading order. The code stands alone on its line. */
function mailText(c: MailContent): string {
  const main = c.code
    ? [...(c.replaces ? [c.replaces, ''] : []), c.intro, '', c.code, '', c.validity]
    : [c.intro, '', `${c.action?.label}:`, c.action?.url ?? '', '', c.validity];
  return [
    c.heading,
    '',
    ...main,
    '',
    ...(c.requested ? [c.requested] : []),
    c.why,
    c.ignore,
    '',
    '--',
    `${c.footer} ${c.publicUrl}`,
    c.footerAuto,
    '',
  ].join('\n');
}

/** Loaded on the first mail only: React and React Email stay out of the server's start-up. */
let layout: Promise<typeof import('./layout.js')> | undefined;

export async function renderEmail(message: MailMessage, site: MailSite): Promise<RenderedMail> {
  const content = mailContent(message, site);
  layout ??= import('./layout.js').catch((err: unknown) => {
    layout = undefined;
    throw err;
  });
  const html = await (await layout).renderHtml(content);
  return { subject: content.subject, text: mailText(content), html };
}
