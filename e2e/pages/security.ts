import { expect, type CDPSession, type Locator, type Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { openDatabase } from '../../apps/server/src/db/database';
import { SECURITY_DATA_DIR } from '../env';
import { AccountScreens } from './account';
import { texts, type Lang } from './locale-texts';

/**
 * A platform authenticator in Chromium through the DevTools WebAuthn domain: internal transport (a
 * fingerprint reader or screen lock), discoverable credentials, user verification on and answered yes at
 * once, as a person touching the sensor would.
 */
export class VirtualAuthenticator {
  private constructor(
    private readonly cdp: CDPSession,
    private readonly id: string,
  ) {}

  static async attach(page: Page): Promise<VirtualAuthenticator> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        ctap2Version: 'ctap2_1',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return new VirtualAuthenticator(cdp, authenticatorId);
  }

  /** The passkeys this authenticator holds, with their signature counters. */
  async credentials(): Promise<{ credentialId: string; rpId?: string; signCount: number; userHandle?: string }[]> {
    const { credentials } = await this.cdp.send('WebAuthn.getCredentials', { authenticatorId: this.id });
    return credentials;
  }
}

/**
 * Moves the last proof of the account's sessions on the security server back past the fresh-proof
 * window, as if the session had been taken a while after its sign-in (its database row, not a wait).
 */
export async function staleProofs(email: string): Promise<void> {
  const db = openDatabase({ dataDir: SECURITY_DATA_DIR });
  try {
    await db.kysely
      .updateTable('sessions')
      .set({ proved_at: Date.now() - 11 * 60_000 })
      .where('user_id', 'in', db.kysely.selectFrom('users').select('id').where('email', '=', email.toLowerCase()))
      .execute();
  } finally {
    await db.close();
  }
}

/** Six digits the authenticator app would show now for `secret` (base32, as the screen shows it). */
export function appCode(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ secret: secret.replace(/\s+/g, ''), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

/** The signed-in home's Security panel and the login screen's passkey and code step, in any language (besides the account screens). */
export class SecurityScreens extends AccountScreens {
  readonly secT;
  readonly stepT;

  constructor(page: Page, lang: Lang = 'en') {
    super(page, lang);
    this.secT = texts(lang, 'security');
    this.stepT = texts(lang, 'loginStep');
  }

  get panel(): Locator {
    return this.page.getByRole('region', { name: this.secT('title'), exact: true });
  }
  /** The confirmation shown beside the part that changed (passkeys or two-step verification). */
  get status(): Locator {
    return this.panel.getByRole('status').filter({ hasText: /\S/ });
  }
  passkey(name: string): Locator {
    return this.panel.getByRole('listitem', { name, exact: true });
  }
  button(name: string, scope: Locator = this.panel): Locator {
    return scope.getByRole('button', { name, exact: true });
  }

  /** Adds a passkey of this device; answers the name it was given (after the device). */
  async addPasskey(): Promise<string> {
    const items = this.panel.getByRole('listitem');
    const before = await items.count();
    await this.button(this.secT('passkeys.add')).click();
    await expect(items).toHaveCount(before + 1);
    const name = ((await items.last().getByRole('heading').textContent()) ?? '').trim();
    await expect(this.status).toHaveText(this.secT('passkeys.added', { name }));
    return name;
  }

  async renamePasskey(from: string, to: string): Promise<void> {
    await this.button(this.secT('passkeys.renameOf', { name: from })).click();
    const field = this.panel.getByRole('textbox', { name: this.secT('passkeys.name') });
    await field.fill(to);
    await this.button(this.secT('passkeys.save')).click();
    await expect(this.passkey(to)).toBeVisible();
  }

  async removePasskey(name: string): Promise<void> {
    await this.button(this.secT('passkeys.removeOf', { name })).click();
    await this.page
      .getByRole('dialog')
      .getByRole('button', { name: this.secT('passkeys.removeConfirm'), exact: true })
      .click();
    await expect(this.status).toHaveText(this.secT('passkeys.removed', { name }));
    await expect(this.passkey(name)).toHaveCount(0);
  }

  /** Turns on two-step verification; answers the key (as text) and the recovery codes shown once. */
  async turnOnTwoStep(): Promise<{ secret: string; codes: string[] }> {
    await this.button(this.secT('totp.turnOn')).click();
    await expect(this.panel.getByRole('img', { name: this.secT('totp.qrAlt') })).toBeVisible();
    const secret = ((await this.panel.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
    await this.typeCodeInto(this.panel, appCode(secret), this.secT('totp.digit', { n: 1, total: 6 }));
    await expect(this.panel.getByRole('heading', { name: this.secT('codes.title') })).toBeFocused();
    const codes = (await this.panel.getByTestId('recovery-codes').getByRole('listitem').allTextContents()).map((c) =>
      c.trim(),
    );
    return { secret, codes };
  }

  /** Types six digits into the six boxes whose first one is named `firstBox`; the last one submits. */
  async typeCodeInto(scope: Locator | Page, code: string, firstBox: string): Promise<void> {
    await scope.getByRole('textbox', { name: firstBox, exact: true }).click();
    await this.page.keyboard.type(code, { delay: 30 });
  }

  /** Signs out; the app shows the login screen (unless `passkeyAutofill`: its autofill may sign in again at once). */
  /**
   * Signs out; with `passkeyAutofill`, the login screen's autofill signs straight back in with the
   * authenticator's passkey: returns once that sign-in has been answered (the home shown before it is the old one).
   */
  async signOut(options: { passkeyAutofill?: boolean } = {}): Promise<void> {
    const autofilled = options.passkeyAutofill
      ? this.page.waitForResponse(
          (r) => new URL(r.url()).pathname === '/api/auth/passkey' && r.request().method() === 'POST',
          { timeout: 30_000 },
        )
      : null;
    await this.signOutFromMenu();
    if (autofilled) expect((await autofilled).ok()).toBe(true);
    else await expect(this.page).toHaveURL(/\/user\/login$/);
  }

  async signInWithPasskey(): Promise<void> {
    await this.page.getByRole('button', { name: this.loginT('passkey'), exact: true }).click();
  }

  async expectCodeStep(email: string): Promise<void> {
    await expect(this.page.getByRole('heading', { name: this.stepT('title'), level: 1 })).toBeVisible();
    await expect(this.page.getByText(this.stepT('lead', { n: 6, email }))).toBeVisible();
  }

  async answerWithApp(code: string): Promise<void> {
    await this.typeCodeInto(this.page, code, this.stepT('digit', { n: 1, total: 6 }));
  }

  async answerWithRecoveryCode(code: string): Promise<void> {
    await this.page.getByRole('button', { name: this.stepT('useRecovery'), exact: true }).click();
    await this.page.getByRole('textbox', { name: this.stepT('recovery') }).fill(code);
    await this.page.getByRole('button', { name: this.stepT('submit'), exact: true }).click();
  }
}
