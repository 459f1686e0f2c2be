import { Suspense, lazy, useEffect, useEffectEvent, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import { ApiError } from '../../../lib/api-client';
import { displayNameProblem } from '../../../lib/name-rules';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { Button } from '../../../components/button';
import { Alert } from '../../../components/alert';
import { Checkbox } from '../../../components/checkbox';
import { TextField } from '../../../components/text-field';
import { TermsConsent } from '../../../components/terms-consent';
import { useMediaDevices, type DeviceLists } from '../hooks/use-media-devices';
import type { ChosenDevices } from '../lib/jitsi-options';
import { CameraIcon, MicIcon, SpeakerIcon } from './icons';
import { MicLevel } from './mic-level';
import { MediaToggle } from './media-toggle';
import { useMeetingTitle } from '../lib/meeting-title';
import type { LobbyStatus } from '@suite/contract';

/** Only for a blocked permission: its own small chunk, not in the pre-join's first load. */
const PermissionHelp = lazy(() => import('./permission-help').then((module) => ({ default: module.PermissionHelp })));

export interface SetupResult {
  devices: ChosenDevices | null;
  spectator: boolean;
  skipNextTime: boolean;
  /** Microphone and camera off when joining (the toggles on the preview). */
  muted: { audio: boolean; video: boolean };
  /** The name typed by a guest; null when it is not theirs to edit. */
  name: string | null;
}

/**
 * Where the person is after pressing Join: still choosing (setup), asking for the token (connecting),
 * waiting for the host (waiting), or about to enter (entering). The preview, toggles and lists stay.
 */
export type JoinPhase = 'setup' | 'connecting' | 'waiting' | 'lobby' | 'entering';

/** The lobby as the waiting person sees it: where the request stands, Cancel, and Ask again after a refusal. */
export interface LobbyView {
  status: LobbyStatus;
  onCancel: () => void;
  onAskAgain: () => void;
}

/** The lobby card's heading: who they wait for, nobody yet, refused, or ended. */
function lobbyHeading(t: (key: string, values?: Record<string, unknown>) => string, lobby: LobbyStatus): string {
  if (lobby.status === 'denied') return t('lobby.denied');
  if (lobby.status !== 'waiting') return t('lobby.ended');
  if (!lobby.admitter_present) return t('lobby.nobody');
  return lobby.waiting_for ? t('lobby.waitingFor', { name: lobby.waiting_for }) : t('lobby.waiting');
}

/**
 * What the server says of the meeting, as the line next to Join puts it (null: not known); 'host': not
 * started, and this person's Join starts it.
 */
export type MeetingState = 'lobby' | 'notStarted' | 'host' | 'started' | null;

/** Who is in the room (the server's count and first names); null or nobody: the meeting's state instead. */
export type Here = { count: number; names: string[] } | null;

/** "Ada is here", "Ada and Bob are here", "Ada and 2 others are here"; no names: "3 people are here". */
function hereText(t: (key: string, values?: Record<string, unknown>) => string, here: Here): string | null {
  if (!here || here.count < 1) return null;
  const [first, second] = here.names;
  if (!first) return t('setup.here.unnamed', { count: here.count });
  if (here.count === 1) return t('setup.here.one', { name: first });
  if (here.count === 2 && second) return t('setup.here.two', { first, second });
  return t('setup.here.more', { name: first, count: here.count - 1 });
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
      {/* A small menu under the preview: its icon says what it is, its label is for assistive tech. */}
      <label htmlFor={id} className="visually-hidden">
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
  /** Join (or Join as spectator) pressed and the input is valid; a rejection is shown on the form. */
  onDone: (result: SetupResult) => Promise<void> | void;
  /** After Join (waiting for the host): the devices or toggles changed. */
  onUpdate: (result: SetupResult) => void;
  /** Leave the waiting room. */
  onLeave: () => void;
  phase: JoinPhase;
  desktopAppLink: string | null;
  /** The meeting's name (or its room name). */
  meetingName: string;
  /** Who joins: editable for a guest, shown for a signed-in user, absent when unknown. */
  person: { name: string; editable: boolean } | null;
  /** Nobody yet: the guest gives the name and accepts the terms here (spec §4 guest rules). */
  newGuest: boolean;
  meetingState: MeetingState;
  /** Who is already in the room: said instead of the state when someone is. */
  here: Here;
  /** Initial toggle states (the link's startWithAudioMuted / startWithVideoMuted). */
  startMuted: { audio: boolean; video: boolean };
  /** Join asks to join (the person must be let in): the button says so. */
  askToJoin?: boolean;
  /** After asking to join (phase 'lobby'). */
  lobby?: LobbyView | null;
}

/**
 * Pre-join (spec §2 device setup): the self-view as the card's hero with the person's name and the
 * microphone and camera toggles on it, the device lists under it; "Ready to join?" with the meeting's
 * name and who is there (or its state), the guest's name and terms, Join, the remembered skip and the
 * spectator fallback; after Join it stays while the host is awaited.
 */
export function DeviceSetup(props: DeviceSetupProps) {
  const { onDone, onUpdate, phase, person, newGuest } = props;
  const { t } = useTranslation(['meeting', 'errors']);
  const { t: tg } = useTranslation('guest');
  const media = useMediaDevices();
  const people = hereText(t, props.here);
  const [ids, setIds] = useState({ mic: '', speaker: '', camera: '' });
  const [skip, setSkip] = useState(false);
  const [muted, setMuted] = useState(props.startMuted);
  const [name, setName] = useState(person?.name ?? '');
  const [terms, setTerms] = useState(false);
  const [rechecking, setRechecking] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [spectator, setSpectator] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const card = useRef<HTMLElement>(null);
  // The card's height when Join was pressed: waiting for the host (fewer lines) keeps it, no shrinking.
  const [floor, setFloor] = useState<number | null>(null);
  const waiting = phase === 'waiting';
  const lobby = phase === 'lobby' && props.lobby ? props.lobby : null;
  const joined = phase !== 'setup';
  const heading = lobby ? lobbyHeading(t, lobby.status) : waiting ? t('waiting.title') : t('setup.title');
  useMeetingTitle(heading);

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
  const typedName = name.trim();
  const result = (asSpectator: boolean): SetupResult => ({
    devices: asSpectator ? null : chosen(media.devices, ids),
    spectator: asSpectator,
    skipNextTime: skip && !asSpectator,
    muted: asSpectator ? { audio: true, video: true } : muted,
    name: person?.editable || newGuest ? typedName || null : null,
  });

  // While waiting for the host the lists and toggles still work: the room starts with what is chosen last.
  const update = useEffectEvent(() => onUpdate(result(false)));
  // update is an Effect Event (useEffectEvent), never a dependency; eslint-plugin-react-hooks 5 predates it.
  useEffect(() => {
    if (joined && !spectator) update();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [joined, spectator, ids, muted]);

  const nameProblem = newGuest ? displayNameProblem(name) : null;
  const problems = {
    'display-name': !nameProblem
      ? undefined
      : nameProblem === 'required'
        ? tg('nameRequired')
        : t(`errors:${nameProblem}`),
    terms: !newGuest || terms ? undefined : tg('termsRequired'),
  };
  const submit = useFormSubmit<'display-name' | 'terms'>({
    validate: () => {
      setSubmitted(true);
      // Each field names what it misses (as the guest sign-up does); the spec's sentence is the form's message.
      const missing = nameProblem === 'required' || Boolean(problems.terms);
      return { fields: problems, ...(missing ? { form: tg('REQUIRED_FIELD') } : {}) };
    },
    failure: (caught) => ({ form: caught instanceof ApiError ? caught : tg('MSG_GUEST_ERR') }),
  });
  const join = (asSpectator: boolean) =>
    void submit.run(form.current, async () => {
      setFloor(card.current?.offsetHeight ?? null);
      setSpectator(asSpectator);
      // A spectator uses no device: let go of the preview's at once.
      if (asSpectator) media.stop();
      await onDone(result(asSpectator));
    });
  const recheck = async () => {
    setRechecking(true);
    await media.restart(ids.camera || null, ids.mic || null);
    setRechecking(false);
  };

  const placeholder =
    media.status === 'asking'
      ? t('setup.asking')
      : hasVideo && muted.video
        ? t('setup.cameraOff')
        : t('setup.noCamera');
  const shownName = person?.editable || newGuest ? typedName : (person?.name ?? '');
  const micToggle = (
    <MediaToggle
      kind="mic"
      off={muted.audio}
      level
      className="meet-toggle"
      onToggle={() => setMuted((m) => ({ ...m, audio: !m.audio }))}
    />
  );

  const devices = spectator ? null : (
    <div className="meet-setup__devices" role="group" aria-label={t('setup.devices')}>
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
  );
  const stateLine = people ? (
    <p className="meet-setup__state meet-setup__state--started" data-testid="meeting-state">
      {people}
    </p>
  ) : props.meetingState ? (
    <p className={`meet-setup__state meet-setup__state--${props.meetingState}`} data-testid="meeting-state">
      {t(`setup.state.${props.meetingState}`)}
    </p>
  ) : null;

  // Google Meet's order: the preview with its toggles and, under it, the devices as small menus; beside
  // it "Ready to join?", who is there, the guest's name and terms, and Join. On a phone the devices come
  // after Join, so that Join follows the fields at first paint and never has to stick over one.
  return (
    <section
      ref={card}
      className="meet-card meet-setup"
      style={joined && floor ? { minHeight: floor } : undefined}
      aria-labelledby="setup-title"
      data-testid={lobby ? 'meeting-lobby' : waiting ? 'meeting-waiting' : 'meeting-setup'}
    >
      <div className="meet-setup__preview" data-testid="self-view">
        <video
          ref={video}
          autoPlay
          muted
          playsInline
          aria-label={t('setup.preview')}
          hidden={!hasVideo || muted.video || spectator}
        />
        {!hasVideo || muted.video || spectator ? <p className="meet-setup__no-video">{placeholder}</p> : null}
        {shownName ? (
          <p className="meet-setup__self" data-testid="self-name">
            {shownName}
          </p>
        ) : null}
        {ready && !spectator ? (
          <div className="meet-setup__toggles">
            {hasAudio ? (
              <MicLevel stream={media.stream} active={!muted.audio} label={t('setup.micLevel')}>
                {micToggle}
              </MicLevel>
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
        ) : null}
      </div>
      {devices}
      <div className="meet-setup__side">
        <div className="meet-setup__head">
          <p className="meet-setup__meeting" data-testid="setup-meeting-name">
            {props.meetingName}
          </p>
          <h1 id="setup-title">{heading}</h1>
          {joined ? null : stateLine}
        </div>
        <form
          ref={form}
          className="meet-setup__form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (media.status !== 'asking') join(!ready);
          }}
        >
          {lobby ? (
            <div
              className={`meet-setup__progress meet-lobby meet-lobby--${lobby.status.status}`}
              role="status"
              data-testid="lobby-status"
              data-status={lobby.status.status}
            >
              {lobby.status.status === 'waiting' ? (
                <span className="meet-spinner meet-spinner--small" aria-hidden="true" />
              ) : null}
              <p>
                {lobby.status.status === 'waiting'
                  ? t('lobby.text')
                  : lobby.status.status === 'denied' && !lobby.status.can_ask_again
                    ? t('lobby.closed')
                    : t('lobby.askAgainText')}
              </p>
            </div>
          ) : joined ? (
            <div className="meet-setup__progress" role="status">
              <span className="meet-spinner meet-spinner--small" aria-hidden="true" />
              <p>{waiting ? t('waiting.text') : phase === 'entering' ? t('entering') : t('connecting')}</p>
            </div>
          ) : null}
          {!joined && (person?.editable || newGuest) ? (
            <TextField
              label={t('setup.yourName')}
              name="display-name"
              autoComplete="name"
              maxLength={100}
              required={newGuest}
              // A new guest's one thing to type: the caret waits in it.
              autoFocus={newGuest}
              value={name}
              error={submitted ? problems['display-name'] : null}
              onChange={(e) => setName(e.target.value)}
            />
          ) : shownName ? (
            <p className="meet-setup__who">{t('setup.joiningAs', { name: shownName })}</p>
          ) : null}
          {!joined && newGuest ? (
            <TermsConsent ns="guest" checked={terms} onChange={setTerms} error={submitted ? problems.terms : null} />
          ) : null}
          {joined ? null : (
            <>
              {media.status === 'noDevices' ? (
                <div className="stack">
                  <Alert variant="warning">{t('setup.noDevices')}</Alert>
                  <Button block variant="secondary" loading={rechecking} onClick={() => void recheck()}>
                    {t('setup.checkAgain')}
                  </Button>
                </div>
              ) : null}
              {media.status === 'denied' ? (
                <div className="stack">
                  <Suspense fallback={null}>
                    <PermissionHelp />
                  </Suspense>
                  <Button block loading={rechecking} onClick={() => void recheck()}>
                    {t('setup.blocked.allow')}
                  </Button>
                </div>
              ) : null}
              {media.status === 'error' ? (
                <div className="stack">
                  <Alert>{t('setup.activationError')}</Alert>
                  {/* Reloading is what usually fixes it: the main action here; spectator stays the fallback. */}
                  <Button block onClick={() => window.location.reload()}>
                    {t('reload')}
                  </Button>
                </div>
              ) : null}
              {!ready && media.status !== 'asking' ? <p className="muted">{t('setup.spectatorText')}</p> : null}
              {/* A choice about this join: above Join, so that Join is the form's last control. */}
              {ready ? (
                <Checkbox checked={skip} onChange={setSkip} name="skip-review">
                  {t('setup.skipNextTime')}
                </Checkbox>
              ) : null}
              {submit.error ? <Alert>{submit.error}</Alert> : null}
              <div className="meet-setup__join">
                {ready ? (
                  <Button type="submit" block loading={submit.busy}>
                    {props.askToJoin ? t('setup.askToJoin') : t('setup.join')}
                  </Button>
                ) : media.status !== 'asking' ? (
                  <Button
                    block
                    variant={media.status === 'noDevices' ? 'primary' : 'secondary'}
                    loading={submit.busy}
                    onClick={() => join(true)}
                  >
                    {t('setup.joinAsSpectator')}
                  </Button>
                ) : null}
              </div>
            </>
          )}
          {lobby && lobby.status.status !== 'waiting' && lobby.status.can_ask_again ? (
            <Button block onClick={lobby.onAskAgain}>
              {t('lobby.askAgain')}
            </Button>
          ) : null}
          {lobby ? (
            <Button block variant="secondary" onClick={lobby.onCancel}>
              {/* Asking to join and waiting for the host are both a wait: one way out, under one name. */}
              {t('waiting.leave')}
            </Button>
          ) : waiting ? (
            <Button block variant="secondary" onClick={props.onLeave}>
              {t('waiting.leave')}
            </Button>
          ) : null}
        </form>
        {props.desktopAppLink && !joined ? (
          <p className="meet-setup__app">
            <a href={props.desktopAppLink}>{t('appOffer.openDesktop')}</a>
          </p>
        ) : null}
      </div>
    </section>
  );
}
