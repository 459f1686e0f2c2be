import { describe, expect, it } from 'vitest';
import { WEB_PAGES, pageUrl } from '@suite/contract/core';
import { PATHS } from '../lib/paths';
import { SCREEN_MODULES, formFor, pageFor } from './routes';

describe('the one route table', () => {
  it('names a screen module for every page, and no module the table does not name is a chunk', () => {
    const named = new Set(WEB_PAGES.map((p) => p.screen));
    expect(Object.keys(SCREEN_MODULES).sort()).toEqual([...named].sort());
  });

  it('matches addresses to pages, first match wins, parameters and a trailing slash included', () => {
    expect(pageFor('/user/login')?.form).toBe('login');
    expect(formFor('/user/check-token-recovery/')).toBe('check-token-recovery');
    expect(pageFor('/user/nothing-here')).toBeUndefined();
    expect(pageFor('/file/42/download_link')?.name).toBe('fileDownload');
    expect(pageFor('/meet/team.sync')?.name).toBe('meet');
    expect(pageFor('/nowhere')).toBeUndefined();
  });

  it("knows the home's real sections: an unknown one is not found, as the server's 404 says", () => {
    expect(pageFor('/app/security')?.name).toBe('homeSection');
    expect(pageFor('/app/sessions/')?.name).toBe('homeSection');
    expect(pageFor('/app/no-such-section')).toBeUndefined();
    expect(pageFor('/app/admin/people')?.name).toBe('adminSection');
  });

  it('gives the paths features link to and the server writes in mails', () => {
    expect(PATHS.guest).toBe('/guest');
    expect(PATHS.supportedBrowser).toBe('/supported-browser');
    expect(pageUrl('fileDownload', { fileId: 'a b' }, { share_key: 'k' })).toBe(
      '/file/a%20b/download_link?share_key=k',
    );
    expect(pageUrl('confirmInvite', {}, { inviteToken: 't' })).toBe('/confirm-invite?inviteToken=t');
  });

  it('marks the entry screens the issue names: the /user forms but add-teammates, and the public pages', () => {
    expect(WEB_PAGES.filter((p) => p.entry).map((p) => p.path)).toEqual([
      '/user/signup',
      '/user/welcome',
      '/user/login',
      '/user/recovery-password',
      '/user/check-token',
      '/user/check-token-recovery',
      '/user/update-password',
      '/clear',
      '/login-error-sso',
      '/supported-browser',
      '/guest',
      '/confirm-invite',
      '/file/:fileId/download_link',
    ]);
  });
});
