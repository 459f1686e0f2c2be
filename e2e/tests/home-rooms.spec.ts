import type { Page } from '@playwright/test';
import {
  test,
  expect,
  createAccount,
  expectAccessible,
  signInWithStorage,
  uniqueEmail,
  schemeShots,
} from '../fixtures/test';
import { admin } from '../fixtures/admin';
import { texts, type Lang } from '../pages/locale-texts';

/**
 * The home's rooms keep one shape: the team's invitation link is where a person looks for "invite my
 * teammates" (the account menu, from every section), every form of the home labels its fields alike, and
 * the console opens like the other sections (its heading and one-line lead in the section's card).
 */
const adminT = texts('en', 'admin');

/** Screenshots for a person to look at, only when HOME_SHOTS names a folder outside the repository. */
const shots = async (page: Page, name: string) => {
  if (process.env.HOME_SHOTS) await schemeShots(page, name, { dir: process.env.HOME_SHOTS, overflow: false });
};

for (const lang of ['en', 'hi'] as Lang[]) {
  test(`"Invite your teammates" is in the account menu, on every section, not under Meetings (${lang})`, async ({
    page,
    request,
  }) => {
    const t = texts(lang, 'home');
    const team = texts(lang, 'teammates');
    const account = await createAccount(request);
    await signInWithStorage(page, account, '/app/files');
    if (lang !== 'en') {
      await page.evaluate((l) => localStorage.setItem('language', l), lang);
      await page.reload();
    }
    await expect(page.getByRole('region', { name: texts(lang, 'files')('title') })).toBeVisible();
    const menuButton = page.getByRole('banner').getByRole('button');
    await menuButton.click();
    await page.getByRole('menuitem', { name: t('menu.invite') }).click();
    const dialog = page.getByRole('dialog', { name: team('manageTitle') });
    const link = dialog.getByRole('textbox', { name: team('linkLabel') });
    await expect(link).toHaveValue(/\/user\/signup\?inviteToken=/);
    await expect(dialog.getByRole('button', { name: team('copy') })).toBeVisible();
    await expectAccessible(page, `invite dialog ${lang}`);
    await shots(page, `home-invite-dialog-${lang}`);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(menuButton).toBeFocused();

    // Meetings is about meetings: the team link is no longer a card under it.
    await page.goto('/app/meetings');
    await expect(page.getByRole('region', { name: texts(lang, 'meeting')('panel.title') })).toBeVisible();
    await expect(page.getByRole('main').getByRole('textbox', { name: team('linkLabel') })).toHaveCount(0);
    await expect(page.getByRole('main').getByText(team('manageTitle'))).toHaveCount(0);
  });
}

/** Size, weight and colour of every visible field label in the main area. */
const labelStyles = (page: Page) =>
  page.locator('main label').evaluateAll((labels) =>
    labels
      .filter((l) => (l as HTMLElement).checkVisibility() && !l.closest('.visually-hidden') && l.textContent?.trim())
      .filter((l) =>
        (l as HTMLLabelElement).control?.matches('input:not([type=checkbox]):not([type=radio]), select, textarea'),
      )
      .map((l) => {
        const s = getComputedStyle(l);
        return { text: l.textContent!.trim(), style: `${s.fontSize} ${s.fontWeight} ${s.color}` };
      }),
  );

test('one label style across the home: Meetings labels its fields like the console and Security do', async ({
  page,
  request,
}) => {
  const account = await createAccount(request, uniqueEmail('admin'));
  admin('domain', 'admin', 'add', account.email.split('@')[1]!, account.email);
  await signInWithStorage(page, account, '/app/meetings');
  await expect(page.getByRole('region', { name: 'Meetings' })).toBeVisible();
  const meetings = await labelStyles(page);
  expect(meetings.map((l) => l.text)).toEqual(
    expect.arrayContaining([texts('en', 'meeting')('panel.name'), texts('en', 'meeting')('access.label')]),
  );
  // The name and who-joins labels side by side at 1280 px: on one line, over controls of one height.
  const row = page.locator('form.meet-panel__form');
  const tops = await row.locator('label').evaluateAll((ls) => ls.map((l) => Math.round(l.getBoundingClientRect().top)));
  expect(new Set(tops).size, `label tops ${tops.join(', ')}`).toBe(1);
  const heights = await row
    .locator('input, select')
    .evaluateAll((cs) => cs.map((c) => Math.round((c.closest('.field__control') ?? c).getBoundingClientRect().height)));
  expect(new Set(heights).size, `control heights ${heights.join(', ')}`).toBe(1);
  await page.goto('/app/admin');
  await expect(page.getByRole('heading', { level: 2, name: adminT('people.title'), exact: true })).toBeVisible();
  const console = await labelStyles(page);
  expect(console.length).toBeGreaterThan(0);
  const styles = new Set([...meetings, ...console].map((l) => l.style));
  expect([...styles], JSON.stringify([...meetings, ...console])).toHaveLength(1);
});

for (const lang of ['en', 'hi'] as Lang[]) {
  test(`the console opens like the other sections: its heading and one-line lead head the section card (${lang})`, async ({
    page,
    request,
  }) => {
    const a = texts(lang, 'admin');
    const account = await createAccount(request, uniqueEmail('admin'));
    const domain = account.email.split('@')[1]!;
    admin('domain', 'admin', 'add', domain, account.email);
    /** Where a section's heading, lead and first button sit, relative to its card. */
    const shape = () =>
      page
        .locator('main .card')
        .first()
        .evaluate((card) => {
          const box = card.getBoundingClientRect();
          const heading = card.querySelector('h2')!.getBoundingClientRect();
          const lead = card.querySelector('h2 + p')!;
          return {
            headingLeft: Math.round(heading.left - box.left),
            headingTop: Math.round(heading.top - box.top),
            leadSize: getComputedStyle(lead).fontSize,
            leadColour: getComputedStyle(lead).color,
            cardTop: Math.round(box.top),
          };
        });
    await signInWithStorage(page, account, '/app/files');
    if (lang !== 'en') {
      await page.evaluate((l) => localStorage.setItem('language', l), lang);
      await page.reload();
    }
    await expect(page.getByRole('region', { name: texts(lang, 'files')('title') })).toBeVisible();
    const files = await shape();
    await page.goto('/app/admin');
    await expect(page.getByRole('heading', { level: 1, name: a('title') })).toBeAttached();
    await expect(page.locator('main .card h2').first()).toBeVisible();
    expect(await shape()).toEqual(files);
    // The domain it administers is said in the card's lead, not in a header of the console's own.
    await expect(page.locator('main .card').first().locator('h2 + p')).toContainText(domain);
    await shots(page, `home-admin-${lang}`);
  });
}
