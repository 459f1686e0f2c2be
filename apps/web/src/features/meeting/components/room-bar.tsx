import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToolbarButton } from '@suite/contract/core';
import { Logo } from '../../../components/logo';
import { useConfig } from '../../../lib/config';
import type { MeetingQuery } from '../lib/query-options';

/**
 * Our logo, or the DEFAULT_LOGO_URL one when it is served by us or by the meeting domain: the page's
 * Content-Security-Policy loads images from those origins only (a link must not make every visitor's
 * browser fetch from a host of the link author's choosing). Jitsi gets the URL either way
 * (configOverwrite.defaultLogoUrl) and shows it inside its own frame.
 */
export function BrandLogo({ query, appName }: { query: MeetingQuery; appName: string }) {
  const { meetDomain } = useConfig();
  const url = query.ui.defaultLogoUrl;
  const shown = url && [window.location.origin, meetDomain].includes(new URL(url).origin) ? url : null;
  return shown ? (
    <img src={shown} alt={appName} className="meet-bar__logo-img" referrerPolicy="no-referrer" />
  ) : (
    <Logo title={appName} light />
  );
}

export interface RoomBarProps {
  query: MeetingQuery;
  appTitle: string;
  title: string;
  inviteLink: string;
  spectator: boolean;
  /** Phone and tablet browsers cannot share their screen. */
  mobile: boolean;
  joined: boolean;
  /** The host may end the meeting for everyone. */
  canEndForAll: boolean;
  onEndForAll: () => void;
  audioMuted: boolean;
  videoMuted: boolean;
  onCommand: (command: 'toggleAudio' | 'toggleVideo' | 'toggleShareScreen') => void;
  onLeave: () => void;
}

/**
 * Our bar above the Jitsi frame: branding Jitsi no longer takes from an embedder (logo, watermark link,
 * app name, support link), the invite link, and the room controls (mute, video, screen share, leave),
 * each hidden like the Jitsi button of the same name when listed in hideButtons.
 */
export function RoomBar(p: RoomBarProps) {
  const { t } = useTranslation('meeting');
  const [copied, setCopied] = useState(false);
  const { ui, meeting } = p.query;
  const shown = (b: ToolbarButton) => p.query.toolbarButtons.includes(b);
  const appName = ui.appName ?? p.appTitle;
  const logo = <BrandLogo query={p.query} appName={appName} />;
  const brandLink = ui.showBrandWatermark !== false && ui.brandWatermarkLink;
  const inviteHidden = ui.hideInviteMoreHeader === true || meeting.disableInviteFunctions === true || !shown('invite');

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(p.inviteLink);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2500);
    } catch {
      window.prompt(t('room.copyInvite'), p.inviteLink);
    }
  };

  return (
    <header className="meet-bar">
      <div className="meet-bar__brand">
        {meeting.hideLogo ? null : brandLink ? (
          <a href={brandLink} target="_blank" rel="noopener noreferrer" aria-label={appName}>
            {logo}
          </a>
        ) : (
          logo
        )}
        <span className="meet-bar__title">{p.title || appName}</span>
      </div>
      <nav className="meet-bar__controls" aria-label={t('room.controls')}>
        {!p.spectator && shown('microphone') ? (
          <button
            type="button"
            className="meet-ctl"
            aria-pressed={p.audioMuted}
            disabled={!p.joined}
            onClick={() => p.onCommand('toggleAudio')}
          >
            {p.audioMuted ? t('room.unmute') : t('room.mute')}
          </button>
        ) : null}
        {!p.spectator && shown('camera') ? (
          <button
            type="button"
            className="meet-ctl"
            aria-pressed={p.videoMuted}
            disabled={!p.joined}
            onClick={() => p.onCommand('toggleVideo')}
          >
            {p.videoMuted ? t('room.startVideo') : t('room.stopVideo')}
          </button>
        ) : null}
        {!p.spectator && !p.mobile && shown('desktop') ? (
          <button
            type="button"
            className="meet-ctl"
            disabled={!p.joined}
            onClick={() => p.onCommand('toggleShareScreen')}
          >
            {t('room.shareScreen')}
          </button>
        ) : null}
        {inviteHidden ? null : (
          <button type="button" className="meet-ctl" onClick={() => void copy()}>
            {copied ? t('room.copied') : t('room.copyInvite')}
          </button>
        )}
        {ui.supportUrl ? (
          <a className="meet-ctl" href={ui.supportUrl} target="_blank" rel="noopener noreferrer">
            {t('room.support')}
          </a>
        ) : null}
        {p.canEndForAll ? (
          <button type="button" className="meet-ctl meet-ctl--end" onClick={p.onEndForAll}>
            {t('room.endForAll')}
          </button>
        ) : null}
        <button type="button" className="meet-ctl meet-ctl--leave" onClick={p.onLeave}>
          {t('room.leave')}
        </button>
      </nav>
    </header>
  );
}
