import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { admin } from '../fixtures/admin';
import { test, expect, createAccount, signInWithStorage, screenshots } from '../fixtures/test';
import { accessible } from '../pages/a11y';
import { BROWSER_LOCALE, texts, type Lang } from '../pages/locale-texts';
import { SecurityScreens, appCode } from '../pages/security';

/**
 * A domain whose administrator requires two-step verification (through the console's API, the
 * administrator granted with the operator's CLI): during the grace the home shows a banner; after it,
 * a password sign-in without a second factor enrols the authenticator app before any session, shows the
 * recovery codes once, then the home; the next sign-in asks for a code.
 */
test.describe.configure({ mode: 'serial' });

async function setPolicy(request: APIRequestContext, token: string, domain: string, body: Record<string, unknown>) {
  const res = await request.put(`/api/admin/domains/${domain}/security-policy`, {
    headers: { authorization: `Bearer ${token}` },
    data: body,
  });
  expect(res.status(), await res.text()).toBe(200);
}

for (const lang of ['en', 'hi'] as Lang[]) {
  test.describe(`two-step enrolment at sign-in (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('the grace banner, then a password sign-in enrols and lands on the home; the next one asks for a code', async ({
      page,
      request,
    }) => {
      test.setTimeout(120_000);
      const domain = `acme-${randomBytes(4).toString('hex')}.com`;
      const boss = await createAccount(request, `boss@${domain}`);
      const person = await createAccount(request, `ana@${domain}`);
      admin('domain', 'admin', 'add', domain, boss.email);
      await setPolicy(request, boss.token, domain, { require_two_step: true, two_step_grace_days: 7 });

      const ui = new SecurityScreens(page, lang);
      const homeT = texts(lang, 'home');
      const stepT = texts(lang, 'loginStep');

      // During the grace: a session, and the banner that says by when.
      await signInWithStorage(page, person);
      await ui.expectHome(person.email);
      const banner = page.getByTestId('two-step-banner');
      await expect(banner).toBeVisible();
      await expect(banner.getByRole('link', { name: homeT('twoStepBannerAction') })).toBeVisible();
      await accessible(page, 'home with the two-step banner');
      await screenshots(page, `enrol-banner-${lang}`);

      // The grace is over: no session after the password alone.
      await setPolicy(request, boss.token, domain, { require_two_step: false });
      await setPolicy(request, boss.token, domain, { require_two_step: true, two_step_grace_days: 0 });
      await ui.signOut();
      await ui.logIn(person.email, person.password);
      await expect(page.getByRole('heading', { name: stepT('enrol.title'), level: 1 })).toBeVisible();
      expect(await page.evaluate(() => localStorage.getItem('authorization'))).toBeNull();
      const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
      expect(secret.replace(/\s+/g, '')).toMatch(/^[A-Z2-7]{16,}$/);
      await accessible(page, 'enrolment step');
      await screenshots(page, `enrol-step-${lang}`);

      // A wrong first code is refused and changes nothing; the app's code ends the sign-in.
      await ui.typeCodeInto(page, '000000', stepT('digit', { n: 1, total: 6 }));
      await expect(page.getByRole('alert')).toBeVisible();
      await ui.typeCodeInto(page, appCode(secret), stepT('digit', { n: 1, total: 6 }));
      const codesHeading = page.getByRole('heading', { name: texts(lang, 'security')('codes.title'), level: 1 });
      await expect(codesHeading).toBeFocused();
      const codes = (await page.getByTestId('recovery-codes').getByRole('listitem').allTextContents()).map((c) =>
        c.trim(),
      );
      expect(codes).toHaveLength(10);
      await accessible(page, 'recovery codes after enrolment');
      await screenshots(page, `enrol-codes-${lang}`);
      await page.getByRole('button', { name: stepT('enrol.continue'), exact: true }).click();
      await ui.expectHome(person.email);
      await expect(page.getByTestId('two-step-banner')).toHaveCount(0);

      // The next sign-in asks for a code (a recovery code here: the app's current one was just used).
      await ui.signOut();
      await ui.logIn(person.email, person.password);
      await ui.expectCodeStep(person.email);
      await ui.answerWithRecoveryCode(codes[0]!);
      await ui.expectHome(person.email);
    });
  });
}
