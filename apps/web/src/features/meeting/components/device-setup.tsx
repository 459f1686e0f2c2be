import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import { Button } from '../../../components/button';
import { Alert } from '../../../components/alert';
import { Checkbox } from '../../../components/checkbox';
import { TextField } from '../../../components/text-field';
import { useMediaDevices, type DeviceLists } from '../hooks/use-media-devices';
import type { ChosenDevices } from '../lib/jitsi-options';
import { CameraIcon, MicIcon, SpeakerIcon } from './icons';
import { MicLevel } from './mic-level';
import { MediaToggle } from './media-toggle';
import { useMeetingTitle } from '../lib/meeting-title';

export interface SetupResult {
  devices: ChosenDevices | null;
  spectator: boolean;
  skipNextTime: boolean;
  /** Microphone and camera off when joining (the toggles on the preview). */
  muted: { audio: boolean; video: boolean };
  /** The name typed by a guest; null when it is not theirs to edit. */
  name: string | null;
}

function DeviceSelect(props: {
  label: string;
  icon: ReactNode;
  devices: MediaDeviceInfo[];
  value: string;
  onChange: (id: string) => void;
}) {
  const id = useId();
  return (
    <div className="meet-device">
      <label htmlFor={id} className="meet-device__label">
        {props.label}
      </label>
      <span className="meet-device__control">
        {props.icon}
        <select id={id} className="meet-select" value={props.value} onChange={(e) => props.onChange(e.target.value)}>
          {props.devices.map((d, i) => (
            <option key={d.deviceId} value={d.deviceId}>
              {d.label || `${props.label} ${i + 1}`}
            </option>
          ))}
        </select>
      </span>
    </div>
  );
}

const labelOf = (list: MediaDeviceInfo[], id: string) => list.find((d) => d.deviceId === id)?.label || undefined;

function chosen(devices: DeviceLists, ids: { mic: string; speaker: string; camera: string }): ChosenDevices {
  const result: ChosenDevices = {};
  const mic = labelOf(devices.audioInput, ids.mic);
  const speaker = labelOf(devices.audioOutput, ids.speaker);
  const camera = labelOf(devices.videoInput, ids.camera);
  if (mic) result.audioInput = mic;
  if (speaker) result.audioOutput = speaker;
  if (camera) result.videoInput = camera;
  return result;
}

export interface DeviceSetupProps {
  onDone: (result: SetupResult) => void;
  desktopAppLink: string | null;
  /** The meeting's name (or its room name). */
  meetingName: string;
  /** Who joins: editable for a guest, shown for a signed-in user, absent when unknown. */
  person: { name: string; editable: boolean } | null;
  /** Initial toggle states (the link's startWithAudioMuted / startWithVideoMuted). */
  startMuted: { audio: boolean; video: boolean };
}

/**
 * Pre-join (spec §2 device setup, issue 15 item 2): live preview with microphone and camera toggles and a
 * level meter, the meeting's name, the person's name, device lists, remembered skip, spectator fallback.
 */
export function DeviceSetup({ onDone, desktopAppLink, meetingName, person, startMuted }: DeviceSetupProps) {
  const { t } = useTranslation('meeting');
  const media = useMediaDevices();
  const [ids, setIds] = useState({ mic: '', speaker: '', camera: '' });
  const [skip, setSkip] = useState(false);
  const [muted, setMuted] = useState(startMuted);
  const [name, setName] = useState(person?.name ?? '');
  const video = useRef<HTMLVideoElement>(null);
  useMeetingTitle(t('setup.title'));

  useEffect(() => {
    const first = (list: MediaDeviceInfo[], current: string) =>
      list.some((d) => d.deviceId === current) ? current : (list[0]?.deviceId ?? '');
    setIds((prev) => ({
      mic: first(media.devices.audioInput, prev.mic),
      speaker: first(media.devices.audioOutput, prev.speaker),
      camera: first(media.devices.videoInput, prev.camera),
    }));
  }, [media.devices]);

  useEffect(() => {
    if (video.current) video.current.srcObject = media.stream;
  }, [media.stream]);

  // Off means off in the preview too: the track stops sending (and the meter goes flat).
  useEffect(() => {
    media.stream?.getAudioTracks().forEach((track) => (track.enabled = !muted.audio));
    media.stream?.getVideoTracks().forEach((track) => (track.enabled = !muted.video));
  }, [media.stream, muted]);

  const hasVideo = Boolean(media.stream?.getVideoTracks().length);
  const hasAudio = Boolean(media.stream?.getAudioTracks().length);
  const ready = media.status === 'ready';
  const finish = (spectator: boolean) => {
    const devices = spectator ? null : chosen(media.devices, ids);
    media.stop();
    onDone({
      devices,
      spectator,
      skipNextTime: skip && !spectator,
      muted: spectator ? { audio: true, video: true } : muted,
      name: person?.editable && name.trim() ? name.trim() : null,
    });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    finish(false);
  };

  const placeholder =
    media.status === 'asking'
      ? t('setup.asking')
      : hasVideo && muted.video
        ? t('setup.cameraOff')
        : t('setup.noCamera');

  return (
    <section className="meet-card meet-setup" aria-labelledby="setup-title">
      <div className="meet-setup__preview">
        <video
          ref={video}
          autoPlay
          muted
          playsInline
          aria-label={t('setup.preview')}
          hidden={!hasVideo || muted.video}
        />
        {!hasVideo || muted.video ? <p className="meet-setup__no-video">{placeholder}</p> : null}
        {ready ? (
          <div className="meet-setup__overlay">
            {hasAudio ? <MicLevel stream={media.stream} active={!muted.audio} label={t('setup.micLevel')} /> : <span />}
            <div className="meet-setup__toggles">
              {hasAudio ? (
                <MediaToggle
                  kind="mic"
                  off={muted.audio}
                  className="meet-toggle"
                  onToggle={() => setMuted((m) => ({ ...m, audio: !m.audio }))}
                />
              ) : null}
              {hasVideo ? (
                <MediaToggle
                  kind="camera"
                  off={muted.video}
                  className="meet-toggle"
                  onToggle={() => setMuted((m) => ({ ...m, video: !m.video }))}
                />
              ) : null}
            </div>
          </div>
        ) : null}
      </div>
      <div className="meet-setup__side">
        <div className="meet-setup__head">
          <p className="meet-setup__meeting" data-testid="setup-meeting-name">
            {meetingName}
          </p>
          <h1 id="setup-title">{t('setup.title')}</h1>
        </div>
        {ready ? (
          <form className="meet-setup__form" onSubmit={onSubmit}>
            {person?.editable ? (
              <TextField
                label={t('setup.yourName')}
                name="display-name"
                autoComplete="name"
                maxLength={100}
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
            ) : person ? (
              <p className="meet-setup__who">{t('setup.joiningAs', { name: person.name })}</p>
            ) : null}
            <div className="meet-setup__devices">
              {media.devices.audioInput.length ? (
                <DeviceSelect
                  label={t('setup.microphone')}
                  icon={<MicIcon />}
                  devices={media.devices.audioInput}
                  value={ids.mic}
                  onChange={(mic) => {
                    setIds((s) => ({ ...s, mic }));
                    void media.restart(ids.camera || null, mic);
                  }}
                />
              ) : null}
              {media.devices.audioOutput.length ? (
                <DeviceSelect
                  label={t('setup.speaker')}
                  icon={<SpeakerIcon />}
                  devices={media.devices.audioOutput}
                  value={ids.speaker}
                  onChange={(speaker) => setIds((s) => ({ ...s, speaker }))}
                />
              ) : null}
              {media.devices.videoInput.length ? (
                <DeviceSelect
                  label={t('setup.camera')}
                  icon={<CameraIcon />}
                  devices={media.devices.videoInput}
                  value={ids.camera}
                  onChange={(camera) => {
                    setIds((s) => ({ ...s, camera }));
                    void media.restart(camera, ids.mic || null);
                  }}
                />
              ) : null}
            </div>
            <Checkbox checked={skip} onChange={setSkip} name="skip-review">
              {t('setup.skipNextTime')}
            </Checkbox>
            <div className="meet-setup__join">
              <Button type="submit" block>
                {t('setup.join')}
              </Button>
            </div>
          </form>
        ) : null}
        {media.status === 'noDevices' ? <Alert variant="warning">{t('setup.noDevices')}</Alert> : null}
        {media.status === 'denied' ? <Alert variant="warning">{t('setup.denied')}</Alert> : null}
        {media.status === 'error' ? (
          <div className="stack">
            <Alert>{t('setup.activationError')}</Alert>
            {/* Reloading is what usually fixes it: the main action here; spectator stays the fallback. */}
            <Button block onClick={() => window.location.reload()}>
              {t('reload')}
            </Button>
          </div>
        ) : null}
        {!ready && media.status !== 'asking' ? (
          <div className="stack">
            <p className="muted">{t('setup.spectatorText')}</p>
            <Button block variant={media.status === 'noDevices' ? 'primary' : 'secondary'} onClick={() => finish(true)}>
              {t('setup.joinAsSpectator')}
            </Button>
            {media.status === 'denied' ? (
              <Button block variant="link" onClick={() => void media.restart()}>
                {t('setup.tryAgain')}
              </Button>
            ) : null}
          </div>
        ) : null}
        {desktopAppLink ? (
          <p className="meet-setup__app">
            <a href={desktopAppLink}>{t('appOffer.openDesktop')}</a>
          </p>
        ) : null}
      </div>
    </section>
  );
}
