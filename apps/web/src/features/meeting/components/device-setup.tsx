import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { Alert } from '../../../components/alert';
import { Checkbox } from '../../../components/checkbox';
import { useMediaDevices, type DeviceLists } from '../hooks/use-media-devices';
import type { ChosenDevices } from '../lib/jitsi-options';

export interface SetupResult {
  devices: ChosenDevices | null;
  spectator: boolean;
  skipNextTime: boolean;
}

function DeviceSelect(props: {
  label: string;
  devices: MediaDeviceInfo[];
  value: string;
  onChange: (id: string) => void;
  fallback: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {props.label}
      </label>
      <select id={id} className="meet-select" value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.devices.map((d, i) => (
          <option key={d.deviceId} value={d.deviceId}>
            {d.label || `${props.fallback} ${i + 1}`}
          </option>
        ))}
      </select>
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

/** Device review before joining (spec §2, issue item 7): lists, live preview, remembered skip, spectator fallback. */
export function DeviceSetup({
  onDone,
  desktopAppLink,
}: {
  onDone: (result: SetupResult) => void;
  desktopAppLink: string | null;
}) {
  const { t } = useTranslation('meeting');
  const media = useMediaDevices();
  const [ids, setIds] = useState({ mic: '', speaker: '', camera: '' });
  const [skip, setSkip] = useState(false);
  const video = useRef<HTMLVideoElement>(null);

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

  const hasVideo = Boolean(media.stream?.getVideoTracks().length);
  const finish = (spectator: boolean) => {
    const devices = spectator ? null : chosen(media.devices, ids);
    media.stop();
    onDone({ devices, spectator, skipNextTime: skip && !spectator });
  };

  return (
    <section className="meet-card meet-setup" aria-labelledby="setup-title">
      <h1 id="setup-title">{t('setup.title')}</h1>
      <div className="meet-setup__preview">
        <video ref={video} autoPlay muted playsInline aria-label={t('setup.preview')} hidden={!hasVideo} />
        {!hasVideo ? (
          <p className="meet-setup__no-video">{media.status === 'asking' ? t('setup.asking') : t('setup.noCamera')}</p>
        ) : null}
      </div>
      {media.status === 'ready' ? (
        <div className="stack">
          {media.devices.audioInput.length ? (
            <DeviceSelect
              label={t('setup.microphone')}
              fallback={t('setup.microphone')}
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
              fallback={t('setup.speaker')}
              devices={media.devices.audioOutput}
              value={ids.speaker}
              onChange={(speaker) => setIds((s) => ({ ...s, speaker }))}
            />
          ) : null}
          {media.devices.videoInput.length ? (
            <DeviceSelect
              label={t('setup.camera')}
              fallback={t('setup.camera')}
              devices={media.devices.videoInput}
              value={ids.camera}
              onChange={(camera) => {
                setIds((s) => ({ ...s, camera }));
                void media.restart(camera, ids.mic || null);
              }}
            />
          ) : null}
          <Checkbox checked={skip} onChange={setSkip} name="skip-review">
            {t('setup.skipNextTime')}
          </Checkbox>
          <Button block onClick={() => finish(false)}>
            {t('setup.join')}
          </Button>
        </div>
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
      {media.status !== 'ready' && media.status !== 'asking' ? (
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
    </section>
  );
}
