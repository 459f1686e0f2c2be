import { useTranslation } from '../../../lib/i18n-react';
import { CameraIcon, MicIcon } from './icons';

/**
 * Microphone or camera on/off, on the pre-join preview and in the room bar. One accessible name
 * ("Mute microphone", "Turn off camera") with aria-pressed = off, so a screen reader hears "pressed" when
 * muted; sighted users see a red button with a crossed icon and a tooltip saying what a click does.
 * `level`: the microphone glyph fills with the input level (inside a MicLevel).
 */
export function MediaToggle(props: {
  kind: 'mic' | 'camera';
  off: boolean;
  onToggle: () => void;
  className: string;
  disabled?: boolean;
  level?: boolean;
}) {
  const { t } = useTranslation('meeting');
  const mic = props.kind === 'mic';
  const name = mic ? t('toggle.micOff') : t('toggle.cameraOff');
  const tip = props.off ? (mic ? t('toggle.micOn') : t('toggle.cameraOn')) : name;
  return (
    <button
      type="button"
      className={props.className}
      aria-pressed={props.off}
      aria-label={name}
      data-tip={tip}
      disabled={props.disabled}
      onClick={props.onToggle}
    >
      {mic ? <MicIcon off={props.off} level={props.level ?? false} /> : <CameraIcon off={props.off} />}
    </button>
  );
}
