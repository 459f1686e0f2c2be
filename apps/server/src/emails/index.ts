import { CODE_TTL_MS, LANGUAGES, type Language } from '@suite/contract';
import { MAIL_TEXTS, type MailTexts } from './texts.js';

/** What the services ask to send; rendered into subject/text/html when queued. */
export type MailMessage =
  | { kind: 'confirm-code' | 'recovery-code'; to: string; language: Language; code: string }
  | { kind: 'invite'; to: string; language: Language; inviter: string; inviteToken: string; days: number };

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
  return `${site.publicUrl}/confirm-invite?inviteToken=${encodeURIComponent(inviteToken)}`;
}

export function renderEmail(message: MailMessage, site: MailSite): RenderedMail {
  const texts = MAIL_TEXTS[LANGUAGES.includes(message.language) ? message.language : 'en'];
  const vars: Record<string, string> = {
    app: site.appTitle,
    minutes: String(Math.max(1, Math.round((site.codeTtlMs ?? CODE_TTL_MS) / 60_000))),
  };
  if (message.kind === 'invite') {
    Object.assign(vars, { inviter: message.inviter, days: String(message.days) });
    return renderInvite(texts, vars, inviteUrl(site, message.inviteToken), site);
  }
  vars.code = message.code;
  const confirm = message.kind === 'confirm-code';
  const subject = fill(confirm ? texts.confirmSubject : texts.recoverySubject, vars);
  const lines = [
    fill(confirm ? texts.confirmIntro : texts.recoveryIntro, vars),
    fill(texts.codeExpiry, vars),
    fill(texts.codeIgnore, vars),
  ];
  const text = [lines[0], '', message.code, '', lines[1], lines[2], '', footer(texts, vars, site)].join('\n');
  const body = [
    `<p>${esc(lines[0] ?? '')}</p>`,
    `<p style="font-size:32px;font-weight:bold;letter-spacing:8px">${esc(message.code)}</p>`,
    `<p>${esc(lines[1] ?? '')}<br>${esc(lines[2] ?? '')}</p>`,
  ].join('\n');
  return { subject, text, html: layout(subject, body, texts, vars, site) };
}

function renderInvite(texts: MailTexts, vars: Record<string, string>, url: string, site: MailSite): RenderedMail {
  const subject = fill(texts.inviteSubject, vars);
  const intro = fill(texts.inviteIntro, vars);
  const expiry = fill(texts.inviteExpiry, vars);
  const ignore = fill(texts.inviteIgnore, vars);
  const text = [intro, '', `${texts.inviteButton}: ${url}`, '', expiry, ignore, '', footer(texts, vars, site)].join(
    '\n',
  );
  const body = [
    `<p>${esc(intro)}</p>`,
    `<p><a href="${esc(url)}" style="display:inline-block;padding:12px 24px;border-radius:40px;background:#0E74CC;color:#fff;text-decoration:none">${esc(texts.inviteButton)}</a></p>`,
    `<p>${esc(texts.linkFallback)}<br><a href="${esc(url)}">${esc(url)}</a></p>`,
    `<p>${esc(expiry)}<br>${esc(ignore)}</p>`,
  ].join('\n');
  return { subject, text, html: layout(subject, body, texts, vars, site) };
}

function footer(texts: MailTexts, vars: Record<string, string>, site: MailSite): string {
  return `${fill(texts.footer, vars)} ${site.publicUrl}`;
}

function layout(title: string, body: string, texts: MailTexts, vars: Record<string, string>, site: MailSite): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${esc(title)}</title></head>
<body style="font-family:Poppins,Arial,sans-serif;color:#263035;background:#f5f7fa;margin:0;padding:24px">
<div style="max-width:520px;margin:0 auto;background:#fff;border-radius:16px;padding:32px">
${body}
<p style="color:#808080;font-size:12px">${esc(fill(texts.footer, vars))} <a href="${esc(site.publicUrl)}">${esc(site.publicUrl)}</a></p>
</div></body></html>`;
}

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => vars[key] ?? whole);
}

function esc(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
