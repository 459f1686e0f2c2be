import type { ReactNode } from 'react';
import { Icon as BaseIcon } from '../../../components/icon';

/** The room's icons: the shared inline icon, sized and coloured by .meet-icon. */
const Icon = ({ children }: { children: ReactNode }) => <BaseIcon className="meet-icon">{children}</BaseIcon>;

const SLASH = <path d="M3 3l18 18" />;

/** `level`: the capsule fills from the bottom with the CSS variable --level (0–1) of an ancestor (MicLevel). */
export const MicIcon = ({ off = false, level = false }: { off?: boolean; level?: boolean }) => (
  <Icon>
    {level && !off ? <rect className="meet-icon__level" x="9" y="3" width="6" height="11" rx="3" /> : null}
    <rect x="9" y="3" width="6" height="11" rx="3" />
    <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
    {off ? SLASH : null}
  </Icon>
);

export const CameraIcon = ({ off = false }: { off?: boolean }) => (
  <Icon>
    <rect x="3" y="6" width="13" height="12" rx="2" />
    <path d="M16 10l5-3v10l-5-3" />
    {off ? SLASH : null}
  </Icon>
);

export const SpeakerIcon = () => (
  <Icon>
    <path d="M4 9v6h4l5 4V5L8 9H4z" />
    <path d="M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12" />
  </Icon>
);

export const ScreenIcon = () => (
  <Icon>
    <rect x="3" y="4" width="18" height="13" rx="2" />
    <path d="M8 21h8M12 17v4M12 14V8M9 11l3-3 3 3" />
  </Icon>
);

export const LinkIcon = () => (
  <Icon>
    <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" />
    <path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
  </Icon>
);

export const CheckIcon = () => (
  <Icon>
    <path d="M5 12l5 5 9-10" />
  </Icon>
);

export const HelpIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="9" />
    <path d="M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14M12 17.5v.01" />
  </Icon>
);

/** A handset put down: leaving the call. */
export const LeaveIcon = () => (
  <Icon>
    <path d="M3 14.5c5-4.7 13-4.7 18 0l-2.2 2.6-3.6-1.3v-2.6a9.5 9.5 0 0 0-6.4 0v2.6l-3.6 1.3z" />
  </Icon>
);

/** Everyone out: ending the meeting for all. */
export const EndAllIcon = () => (
  <Icon>
    <circle cx="9" cy="8" r="3" />
    <path d="M3 20a6 6 0 0 1 12 0M16 5l5 5M21 5l-5 5" />
  </Icon>
);

/** Three dots: the room bar's overflow menu. */
export const MoreIcon = () => (
  <Icon>
    <path d="M5 12h.01M12 12h.01M19 12h.01" strokeWidth="3" />
  </Icon>
);

/** A small caret: the leave button's menu. */
export const CaretIcon = () => (
  <Icon>
    <path d="M7 10l5 5 5-5" />
  </Icon>
);
