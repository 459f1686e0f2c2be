import type { Page } from '@playwright/test';
import { test, expect, createAccount, expectAccessible, signInWithStorage, schemeShots } from '../fixtures/test';
import { texts, type Lang } from '../pages/locale-texts';
import { SecurityScreens, appCode } from '../pages/security';
import { FilesPanel } from '../pages/files-panel';

const homeT = texts('en', 'home');
const nav = (page: Page) => page.getByRole('navigation', { name: homeT('nav.label') });
const current = (page: Page) => nav(page).locator('[aria-current="page"]');

/**
 * Screenshots of a home section for a person to look at (light and dark, desktop and phone), when
 * HOME_SHOTS names a folder outside the repository; the checks around them run either way.
 */
const shots = (page: Page, name: string) => schemeShots(page, name, { dir: process.env.HOME_SHOTS });

test.describe('the signed-in home: a place with rooms', () => {
  test('each section has its own address: deep links survive a reload, back and forward move between them', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await signInWithStorage(page, account, '/app/sessions');
    await expect(current(page)).toHaveAccessibleName(homeT('nav.sessions'));
    await expect(page.getByRole('region', { name: texts('en', 'sessions')('title') })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`^${homeT('nav.sessions')} · `));
    // One section at a time: nothing of the others is on the page.
    await expect(page.getByRole('region', { name: 'Files' })).toHaveCount(0);
    await page.reload();
    await expect(current(page)).toHaveAccessibleName(homeT('nav.sessions'));
    await expect(page.getByRole('region', { name: texts('en', 'sessions')('title') })).toBeVisible();

    await nav(page)
      .getByRole('link', { name: homeT('nav.files') })
      .click();
    await expect(page).toHaveURL(/\/app\/files$/);
    await expect(page.getByRole('region', { name: 'Files' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: homeT('nav.files') })).toBeFocused();
    await page.goBack();
    await expect(page).toHaveURL(/\/app\/sessions$/);
    await expect(current(page)).toHaveAccessibleName(homeT('nav.sessions'));
    await page.goForward();
    await expect(page).toHaveURL(/\/app\/files$/);
    await expect(current(page)).toHaveAccessibleName(homeT('nav.files'));

    // An address that is no section is the not-found page, not an empty home.
    await page.goto('/app/nothing-here');
    await expect(page.getByRole('heading', { name: texts('en', 'pages')('notFound.title') })).toBeVisible();
  });

  test('"Start a meeting" takes you into it; "Create for later" gives its link', async ({ page, request }) => {
    const account = await createAccount(request);
    await signInWithStorage(page, account, '/app');
    const panel = page.getByRole('region', { name: 'Meetings' });
    await panel.getByRole('button', { name: 'Create for later' }).click();
    // In the list of meetings (first, with its Copy), not in the middle of the form.
    const created = panel.getByRole('listitem').first();
    await expect(created).toContainText('Your meeting is ready');
    await expect(created.getByRole('button', { name: /^Copy/ })).toBeVisible();
    await expect(panel.locator('form').getByText('Your meeting is ready')).toHaveCount(0);
    await expect(created.getByText(/\/meet\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/)).toBeVisible();
    await expect(page).toHaveURL(/\/app$/);
    await panel.getByLabel('Meeting name (optional)').fill('Stand-up');
    await panel.getByRole('button', { name: 'Start a meeting' }).click();
    await expect(page).toHaveURL(/\/meet\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
    const list = await request.get('/api/v2/videoconference', {
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(((await list.json()) as { data: { title?: string }[] }).data.map((m) => m.title ?? '')).toContain(
      'Stand-up',
    );
  });

  test('the account menu by keyboard: who is signed in, Escape gives the focus back, Sign out', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await signInWithStorage(page, account, '/app/security');
    const button = page.getByRole('banner').getByRole('button');
    await button.focus();
    await page.keyboard.press('ArrowDown');
    const menu = page.getByRole('menu');
    // A company account's menu opens on "Invite your teammates", then Sign out.
    await expect(menu.getByRole('menuitem', { name: homeT('menu.invite'), exact: true })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: homeT('menu.signOut'), exact: true })).toBeFocused();
    await expect(page.getByText(account.email, { exact: true })).toBeVisible();
    await expectAccessible(page, 'account menu open');
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(button).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: homeT('menu.signOut'), exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/user\/login$/);
  });

  test('recovery codes: one bordered block with Copy, Download and Print; "Make new codes" replaces them', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await signInWithStorage(page, account, '/app/security');
    const ui = new SecurityScreens(page);
    const { secret, codes } = await ui.turnOnTwoStep();
    expect(codes).toHaveLength(10);
    const block = ui.panel.getByTestId('recovery-codes').locator('xpath=..');
    for (const name of [ui.secT('codes.copy'), ui.secT('codes.download'), ui.secT('codes.print')]) {
      await expect(block.getByRole('button', { name, exact: true })).toBeVisible();
    }
    expect(await block.evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe('solid');
    // On a phone the three are one row of small buttons, "I have saved them" apart below (four stacked before).
    await page.setViewportSize({ width: 360, height: 740 });
    const tops = await block
      .getByRole('button')
      .evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
    expect(new Set(tops.slice(0, 3)).size).toBe(1);
    expect(tops[3]).toBeGreaterThan(tops[0]!);
    await page.setViewportSize({ width: 1280, height: 800 });
    await shots(page, 'home-recovery-codes-en');
    // The two-step confirmation shows beside two-step verification, then goes.
    await expect(ui.status).toHaveText(ui.secT('totp.turnedOn'));
    await ui.button(ui.secT('codes.done')).click();
    await expect(ui.status).toHaveCount(0, { timeout: 15_000 });

    await ui.button(ui.secT('codes.renew')).click();
    await ui.typeCodeInto(ui.panel, appCode(secret, 1), ui.secT('totp.digit', { n: 1, total: 6 }));
    await expect(ui.panel.getByRole('heading', { name: ui.secT('codes.title') })).toBeFocused();
    const fresh = (await ui.panel.getByTestId('recovery-codes').getByRole('listitem').allTextContents()).map((c) =>
      c.trim(),
    );
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => codes.includes(c))).toEqual([]);
    await expect(ui.status).toHaveText(ui.secT('codes.renewed'));
    await ui.button(ui.secT('codes.done')).click();
    await expect(ui.panel).toContainText(ui.secT('totp.codesLeft_other', { count: 10 }));
  });

  test("a file's share link stays copyable while it lives, after a reload too; revoked, it goes", async ({
    page,
    request,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const account = await createAccount(request);
    await signInWithStorage(page, account, '/app/files');
    const files = new FilesPanel(page);
    await files.upload({ name: 'plan.txt', mimeType: 'text/plain', buffer: Buffer.from('the plan') });
    const url = await files.createLink('plan.txt', 'In 7 days');
    await page.reload();
    const item = files.item('plan.txt');
    await item.getByRole('button', { name: 'Share' }).click();
    const copy = item.getByRole('button', { name: /^Copy the link created / });
    await expect(copy).toHaveCount(1);
    await copy.click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await item.getByRole('button', { name: /^Revoke the link created / }).click();
    await expect(copy).toHaveCount(0);
  });

  for (const lang of ['en', 'hi'] as Lang[]) {
    test(`every section lays out at 1280 and 360, light and dark, axe clean (${lang})`, async ({ page, request }) => {
      test.setTimeout(120_000);
      const account = await createAccount(request);
      await signInWithStorage(page, account, '/app');
      if (lang !== 'en') {
        await page.evaluate((l) => localStorage.setItem('language', l), lang);
        await page.reload();
      }
      const t = texts(lang, 'home');
      for (const section of ['meetings', 'files', 'security', 'sessions'] as const) {
        await page.goto(`/app/${section}`);
        await expect(
          page.getByRole('navigation', { name: t('nav.label') }).locator('[aria-current="page"]'),
        ).toHaveAccessibleName(t(`nav.${section}`));
        await expect(page.locator('main .card').first()).toBeVisible();
        await expect(page.locator('.page-loading')).toHaveCount(0);
        await expectAccessible(page, `home ${section} ${lang}`);
        await shots(page, `home-${section}-${lang}`);
      }
    });
  }
});
