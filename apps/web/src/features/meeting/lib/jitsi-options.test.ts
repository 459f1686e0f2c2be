import { describe, expect, it } from 'vitest';
import { TOOLBAR_BUTTONS } from '@suite/contract/core';
import { parseMeetingQuery } from './query-options';
import { buildJitsiOptions, shouldAutoRecord } from './jitsi-options';
import { appDeepLink, jitsiRoomName } from './app-links';
import { externalApiUrl } from './external-api';

const build = (search: string, extra: Partial<Parameters<typeof buildJitsiOptions>[0]> = {}) =>
  buildJitsiOptions({
    roomName: 'abc-defg-hij',
    lang: 'en',
    parentNode: document.createElement('div'),
    query: parseMeetingQuery(search),
    devices: null,
    spectator: false,
    ...extra,
  });

describe('meeting query parameters', () => {
  it('keeps only http(s) URLs for avatar, logo and links', () => {
    const q = parseMeetingQuery(
      '?avatar=javascript:alert(1)&DEFAULT_LOGO_URL=data:text/html,x&SUPPORT_URL=https://help.example.com&BRAND_WATERMARK_LINK=http://acme.example',
    );
    expect(q.avatar).toBeNull();
    expect(q.ui.defaultLogoUrl).toBeNull();
    expect(q.ui.supportUrl).toBe('https://help.example.com/');
    expect(q.ui.brandWatermarkLink).toBe('http://acme.example/');
    expect(q.refused).toEqual(expect.arrayContaining(['avatar', 'DEFAULT_LOGO_URL']));
  });

  it('filters the 26-button toolbar with hideButtons', () => {
    expect(TOOLBAR_BUTTONS).toHaveLength(26);
    const q = parseMeetingQuery('?hideButtons=chat, Recording ,whiteboard,unknown');
    expect(q.toolbarButtons).toHaveLength(23);
    expect(q.toolbarButtons).not.toContain('chat');
    expect(build('?hideButtons=chat').configOverwrite.toolbarButtons).not.toContain('chat');
  });

  it('the pre-join toggles win over the startWith…Muted of the link; without them the link decides', () => {
    const search = '?startWithAudioMuted=true&startWithVideoMuted=false';
    expect(build(search).configOverwrite).toMatchObject({ startWithAudioMuted: true, startWithVideoMuted: false });
    expect(build(search, { startMuted: { audio: false, video: true } }).configOverwrite).toMatchObject({
      startWithAudioMuted: false,
      startWithVideoMuted: true,
    });
  });

  it('ignores values that are not booleans or numbers in range', () => {
    const q = parseMeetingQuery('?startWithAudioMuted=maybe&channelLastN=1000');
    expect(q.meeting.startWithAudioMuted).toBeNull();
    expect(q.meeting.channelLastN).toBeNull();
    expect(build('?startWithAudioMuted=maybe').configOverwrite).not.toHaveProperty('startWithAudioMuted');
  });

  it('maps names to text and meeting options to current Jitsi keys', () => {
    const o = build(
      '?first_name=%3Cb%3EAna%3C/b%3E&last_name=Lima&liveStreamingEnabled=false&fileRecordingsEnabled=false&prejoinPageEnabled=true',
    );
    expect(o.userInfo.displayName).toBe('<b>Ana</b> Lima');
    expect(o.configOverwrite).toMatchObject({
      liveStreaming: { enabled: false },
      recordingService: { enabled: false },
      prejoinConfig: { enabled: true },
    });
  });

  it('sets one deeplinking object instead of the deprecated disableDeepLinking', () => {
    const plain = build('').configOverwrite;
    expect(plain).not.toHaveProperty('disableDeepLinking');
    expect(plain.deeplinking).toEqual({ disabled: true });
    expect(build('?hideDesktopLink=true').configOverwrite.deeplinking).toEqual({
      disabled: true,
      desktop: { enabled: false },
    });
    expect(build('?hideDesktopLink=false').configOverwrite.deeplinking).toEqual({ disabled: true });
  });

  it('passes an http(s) DEFAULT_LOGO_URL to Jitsi as configOverwrite.defaultLogoUrl, nothing else', () => {
    expect(build('?DEFAULT_LOGO_URL=https://cdn.acme.example/logo.svg').configOverwrite.defaultLogoUrl).toBe(
      'https://cdn.acme.example/logo.svg',
    );
    for (const bad of ['javascript:alert(1)', 'data:image/svg+xml,<svg/>', '//evil.example/x.png']) {
      const o = build(`?DEFAULT_LOGO_URL=${encodeURIComponent(bad)}`);
      expect(o.configOverwrite).not.toHaveProperty('defaultLogoUrl');
      expect(o.interfaceConfigOverwrite).not.toHaveProperty('DEFAULT_LOGO_URL');
    }
  });

  it('leaves out of Jitsi’s toolbar the controls our bar shows: one set of controls', () => {
    const ours = ['microphone', 'camera', 'desktop', 'invite', 'hangup'];
    for (const o of [build(''), build('?hideButtons=chat')]) {
      for (const toolbar of [
        o.configOverwrite.toolbarButtons,
        o.interfaceConfigOverwrite.TOOLBAR_BUTTONS,
      ] as string[][]) {
        for (const b of ours) expect(toolbar).not.toContain(b);
        expect(toolbar).toEqual(expect.arrayContaining(['raisehand', 'tileview', 'settings', 'help']));
      }
    }
    // Our support link stands for Jitsi's help button.
    expect(build('?SUPPORT_URL=https://help.example.com').configOverwrite.toolbarButtons).not.toContain('help');
    expect(build('').configOverwrite).not.toHaveProperty('buttonsWithNotifyClick');
  });

  it('joins spectators without devices', () => {
    const o = build('', { spectator: true, devices: { audioInput: 'Mic' } });
    expect(o.configOverwrite).toMatchObject({
      startWithAudioMuted: true,
      startWithVideoMuted: true,
      disableInitialGUM: true,
    });
    expect(o.devices).toBeUndefined();
  });

  it('gives spectators no microphone, camera, screen-sharing or background buttons', () => {
    const deviceButtons = ['microphone', 'camera', 'desktop', 'select-background'];
    const spectator = build('?hideButtons=chat', { spectator: true });
    for (const toolbar of [
      spectator.configOverwrite.toolbarButtons,
      spectator.interfaceConfigOverwrite.TOOLBAR_BUTTONS,
    ] as string[][]) {
      for (const b of deviceButtons) expect(toolbar).not.toContain(b);
      expect(toolbar).not.toContain('chat');
      // 26 minus chat, minus the background button, minus our bar's five (three of them device buttons).
      expect(toolbar).toHaveLength(26 - 1 - 1 - 5);
    }
    const participant = build('').configOverwrite.toolbarButtons as string[];
    expect(participant).toContain('select-background');
  });

  it('auto-records only when asked, as moderator, with file recording allowed', () => {
    expect(shouldAutoRecord(parseMeetingQuery('?start_recording=true'), true)).toBe(true);
    expect(shouldAutoRecord(parseMeetingQuery('?start_recording=true'), false)).toBe(false);
    expect(shouldAutoRecord(parseMeetingQuery('?start_recording=1'), true)).toBe(false);
    expect(shouldAutoRecord(parseMeetingQuery('?start_recording=true&fileRecordingsEnabled=false'), true)).toBe(false);
  });
});

describe('app deep links', () => {
  const info = (os: 'android' | 'ios' | 'macos') => ({
    os,
    browser: 'chrome' as const,
    version: 130,
    mobile: os !== 'macos',
  });
  it('uses the schemes Jitsi Meet apps register', () => {
    expect(appDeepLink(info('android'), 'meet.acme.com', 'abc')).toMatch(
      /^intent:\/\/meet\.acme\.com\/abc#Intent;scheme=org\.jitsi\.meet;package=org\.jitsi\.meet;S\.browser_fallback_url=https%3A%2F%2Fplay\.google\.com.*;end$/,
    );
    expect(appDeepLink(info('ios'), 'meet.acme.com', 'abc')).toBe('org.jitsi.meet://meet.acme.com/abc');
    expect(appDeepLink(info('macos'), 'meet.acme.com', 'abc')).toBe('jitsi-meet://meet.acme.com/abc');
  });

  it('puts JaaS rooms, the script and the app links under the app id', () => {
    const appId = 'vpaas-magic-cookie-0123';
    expect(jitsiRoomName('abc-defg-hij', appId)).toBe(`${appId}/abc-defg-hij`);
    expect(jitsiRoomName('abc-defg-hij', null)).toBe('abc-defg-hij');
    expect(externalApiUrl('https://8x8.vc', appId)).toBe(`https://8x8.vc/${appId}/external_api.js`);
    expect(externalApiUrl('https://meet.acme.com/', null)).toBe('https://meet.acme.com/external_api.js');
    expect(appDeepLink(info('macos'), '8x8.vc', 'abc', appId)).toBe(`jitsi-meet://8x8.vc/${appId}/abc`);
    expect(appDeepLink(info('ios'), '8x8.vc', 'abc', appId)).toBe(`org.jitsi.meet://8x8.vc/${appId}/abc`);
    expect(appDeepLink(info('android'), '8x8.vc', 'abc', appId)).toMatch(
      new RegExp(`^intent://8x8\\.vc/${appId}/abc#Intent;scheme=org\\.jitsi\\.meet;`),
    );
  });
});
