import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, mailbox, uniqueEmail } from '../fixtures/test';
import { admin } from '../fixtures/admin';
import { screenSettled } from '../pages/a11y';
import { BROWSER_LOCALE, texts, type Lang } from '../pages/locale-texts';
import { BASE_URL, WORK_DIR } from '../env';
import { startSamlIdp, type TestSamlIdp } from '../../apps/server/test/idp/saml';
import { boxOf } from '../pages/box';

/**
 * Entry screens that hold still: the login fits a phone without scrolling in every language (also once
 * the address names a company with single sign-on), and the welcome card keeps its height when its
 * per-field messages come and go.
 */
const PHONE = { width: 360, height: 740 };
const SSO_DOMAIN = `fit-${randomBytes(3).toString('hex')}.test`;
let idp: TestSamlIdp;

test.beforeAll(async () => {
  idp = await startSamlIdp(async () => (await fetch(`${BASE_URL}/api/sso/saml/metadata`)).text());
  const file = join(WORK_DIR, `idp-${SSO_DOMAIN}.xml`);
  writeFileSync(file, idp.metadata);
  admin('sso', 'set', SSO_DOMAIN, '--saml', '--metadata', file);
});
test.afterAll(async () => {
  await idp?.stop();
});

const scrolls = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollHeight - window.innerHeight);

/** Screenshots for a person to look at (light and dark), when ENTRY_SHOTS names a folder outside the repository. */
const shot = async (page: Page, name: string) => {
  if (!process.env.ENTRY_SHOTS) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${process.env.ENTRY_SHOTS}/${name}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
};

for (const lang of ['en', 'pt', 'es', 'hi', 'it'] as Lang[]) {
  test.describe(`login on a phone (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang], viewport: PHONE });
    test('fits 360×740 without a vertical scroll, before and after the address names an SSO company', async ({
      page,
    }) => {
      const t = texts(lang, 'login');
      await page.goto('/user/login');
      await expect(page.getByRole('textbox', { name: t('email'), exact: true })).toBeFocused();
      await screenSettled(page);
      await shot(page, `login-${lang}-360`);
      expect(await scrolls(page), `the login (${lang}) scrolls`).toBeLessThanOrEqual(0);

      await page.getByRole('textbox', { name: t('email'), exact: true }).fill(`ada@${SSO_DOMAIN}`);
      await expect(page.getByText(t('ssoLead', { domain: SSO_DOMAIN }))).toBeVisible();
      await screenSettled(page);
      await shot(page, `login-sso-${lang}-360`);
      if (lang === 'en' || lang === 'hi') {
        await page.setViewportSize({ width: 1280, height: 800 });
        await shot(page, `login-sso-${lang}-1280`);
      }
      expect(await scrolls(page), `the login on an SSO domain (${lang}) scrolls`).toBeLessThanOrEqual(0);
    });
  });
}

/** A fresh sign-up up to the welcome step: the code step's session in storage, as the code screen leaves it. */
async function atWelcome(page: Page): Promise<void> {
  const email = uniqueEmail();
  expect((await page.request.post('/api/v2/user', { data: { email } })).status()).toBe(201);
  const confirm = await page.request.put('/api/v2/user/confirm', { data: { email, token: await mailbox.code(email) } });
  expect(confirm.status()).toBe(200);
  const { token } = (await confirm.json()) as { token: string };
  await page.goto('/api/health');
  await page.evaluate((tk) => localStorage.setItem('authorization', tk), token);
  await page.goto('/user/welcome');
}

for (const lang of ['en', 'hi'] as Lang[]) {
  test.describe(`welcome (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      test(`the card keeps its height when its messages appear and go (${viewport.width} px)`, async ({ page }) => {
        await page.setViewportSize(viewport);
        const t = texts(lang, 'welcome');
        await atWelcome(page);
        const first = page.getByRole('textbox', { name: t('firstName'), exact: true });
        await expect(first).toBeFocused();
        await screenSettled(page);
        const card = page.locator('.user-layout');
        const height = async () => (await boxOf(card)).height;
        const empty = await height();
        await shot(page, `welcome-${lang}-${viewport.width}`);
        await page.getByRole('button', { name: t('submit') }).click();
        await expect(page.getByText(t('firstNameRequired'))).toBeVisible();
        await shot(page, `welcome-errors-${lang}-${viewport.width}`);
        expect(await height(), 'the card after an empty submit').toBe(empty);
        await first.fill('Ada');
        await page.getByRole('textbox', { name: t('lastName'), exact: true }).fill('Lovelace');
        await expect(page.getByText(t('firstNameRequired'))).toHaveCount(0);
        expect(await height(), 'the card while typing').toBe(empty);
      });
    }
  });
}
