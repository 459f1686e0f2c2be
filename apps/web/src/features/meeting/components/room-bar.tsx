import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import type { ToolbarButton } from '@suite/contract/core';
import { Logo } from '../../../components/logo';
import { useConfig } from '../../../lib/config';
import { useCopyToClipboard } from '../../../lib/use-copy-to-clipboard';
import { COPIED_FEEDBACK_MS } from '../lib/timings';
import type { MeetingQuery } from '../lib/query-options';
import { CaretIcon, CheckIcon, EndAllIcon, HelpIcon, LeaveIcon, LinkIcon, MoreIcon, ScreenIcon } from './icons';
import { RoomMenu, type RoomMenuItem } from './room-menu';
import { MediaToggle } from './media-toggle';

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

/** An icon-only control: the accessible name is the label, the tooltip shows the same words. */
function IconButton(props: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`meet-ctl ${props.className ?? ''}`}
      aria-label={props.label}
      data-tip={props.label}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      {props.children}
    </button>
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

/** What the page tells the bar (the rest comes from the room's state). */
export type RoomBarInfo = Pick<RoomBarProps, 'query' | 'appTitle' | 'title' | 'inviteLink' | 'spectator' | 'mobile'>;

/** The mute toggles: the Jitsi button each stands for, its kind, and the command it sends. */
const MEDIA = [
  ['microphone', 'mic', 'toggleAudio'],
  ['camera', 'camera', 'toggleVideo'],
] as const;

/**
 * Our bar above the Jitsi frame: branding Jitsi no longer takes from an embedder (logo, watermark link,
 * app name, support link), the invite link, and the room controls (mute, video, screen share, leave),
 * each hidden like the Jitsi button of the same name when listed in hideButtons. Jitsi's toolbar leaves
 * these out (ROOM_BAR_BUTTONS in lib/jitsi-options.ts): one set of controls, each named in a tooltip.
 */
export function RoomBar(p: RoomBarProps) {
  const { t } = useTranslation('meeting');
  const { status: copyStatus, copy } = useCopyToClipboard(COPIED_FEEDBACK_MS);
  const copied = copyStatus === 'copied';
  const copyInvite = () => void copy(p.inviteLink, () => window.prompt(t('room.copyInvite'), p.inviteLink));
  const { ui, meeting } = p.query;
  const shown = (b: ToolbarButton) => p.query.toolbarButtons.includes(b);
  const appName = ui.appName ?? p.appTitle;
  const logo = <BrandLogo query={p.query} appName={appName} />;
  const brandLink = ui.showBrandWatermark !== false && ui.brandWatermarkLink;
  const inviteHidden = ui.hideInviteMoreHeader === true || meeting.disableInviteFunctions === true || !shown('invite');

  // Share, invite and support: beside the toggles on a wide screen, in the "⋯" menu below 480 px (CSS).
  const secondary: (RoomMenuItem & { disabled?: boolean })[] = [];
  if (!p.spectator && !p.mobile && shown('desktop'))
    secondary.push({
      label: t('room.shareScreen'),
      icon: <ScreenIcon />,
      disabled: !p.joined,
      onSelect: () => p.onCommand('toggleShareScreen'),
    });
  if (!inviteHidden)
    secondary.push({
      label: copied ? t('room.copied') : t('room.copyInvite'),
      icon: copied ? <CheckIcon /> : <LinkIcon />,
      onSelect: copyInvite,
    });
  if (ui.supportUrl) secondary.push({ label: t('room.support'), icon: <HelpIcon />, href: ui.supportUrl });

  return (
    <header className="meet-bar">
      <div className="meet-bar__brand">
        {meeting.hideLogo ? null : brandLink ? (
          <a className="meet-bar__logo" href={brandLink} target="_blank" rel="noopener noreferrer" aria-label={appName}>
            {logo}
          </a>
        ) : (
          <span className="meet-bar__logo">{logo}</span>
        )}
        <span className="meet-bar__title" data-testid="meeting-title">
          {p.title || appName}
        </span>
      </div>
      <nav className="meet-bar__controls" aria-label={t('room.controls')}>
        {MEDIA.map(([button, kind, command]) =>
          !p.spectator && shown(button) ? (
            <MediaToggle
              key={kind}
              kind={kind}
              className="meet-ctl"
              off={kind === 'mic' ? p.audioMuted : p.videoMuted}
              disabled={!p.joined}
              onToggle={() => p.onCommand(command)}
            />
          ) : null,
        )}
        <div className="meet-bar__secondary">
          {secondary.map((item) =>
            'href' in item ? (
              <a
                key={item.label}
                className="meet-ctl"
                href={item.href}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={item.label}
                data-tip={item.label}
              >
                {item.icon}
              </a>
            ) : (
              <IconButton key={item.label} label={item.label} disabled={item.disabled} onClick={item.onSelect}>
                {item.icon}
              </IconButton>
            ),
          )}
        </div>
        {secondary.length ? (
          <div className="meet-bar__more">
            <RoomMenu label={t('room.more')} items={secondary.filter((item) => !item.disabled)}>
              <MoreIcon />
            </RoomMenu>
          </div>
        ) : null}
        <div className="meet-leave">
          {/* Leaving is one click; the left page's Rejoin is the undo. */}
          <IconButton label={t('room.leave')} className="meet-ctl--leave" onClick={p.onLeave}>
            <LeaveIcon />
          </IconButton>
          {p.canEndForAll ? (
            // Ending for everyone is never beside Leave: it is behind the leave button's menu, host only.
            <RoomMenu
              label={t('room.leaveOptions')}
              className="meet-ctl--leave-more"
              items={[{ label: t('room.endForAll'), icon: <EndAllIcon />, onSelect: p.onEndForAll }]}
            >
              <CaretIcon />
            </RoomMenu>
          ) : null}
        </div>
      </nav>
      <span className="visually-hidden" role="status">
        {copied ? t('room.copied') : ''}
      </span>
    </header>
  );
}
