import type { Locator, Page } from '@playwright/test';
import { test, expect, createAccount, signInWithStorage, uniqueEmail, overflowOf, schemeShots } from '../fixtures/test';
import { admin } from '../fixtures/admin';
import { texts, type Lang } from '../pages/locale-texts';
import { FilesPanel } from '../pages/files-panel';
import { boxOf } from '../pages/box';

const adminT = texts('en', 'admin');
const filesT = texts('en', 'files');
const meetingT = texts('en', 'meeting');
const PHONE = { width: 360, height: 740 };
/** The filled red of the confirming step (ui.css .btn--danger). */
const FILLED_RED = 'rgb(217, 48, 37)';

const background = (button: Locator) => button.evaluate((el) => getComputedStyle(el).backgroundColor);
/** The width a section card leaves to what it holds (its content box). */
const contentWidth = (card: Locator) =>
  card.evaluate((el) => {
    const style = getComputedStyle(el);
    return el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  });

/**
 * Screenshots of what changed for a person to look at (light and dark, 1280 and 360), when NARROW_SHOTS
 * names a folder outside the repository; nothing scrolls sideways either way.
 */
const shots = (page: Page, name: string) =>
  schemeShots(page, name, { dir: process.env.NARROW_SHOTS, fullPage: true, restore: true });

async function inLanguage(page: Page, lang: Lang): Promise<void> {
  if (lang === 'en') return;
  await page.evaluate((l) => localStorage.setItem('language', l), lang);
  await page.reload();
}

test.describe('the home and the console on a phone, and one destructive style', () => {
  test('Administration at 360: the seven tabs wrap with every name whole, rows use the width, Deactivate is a red outline', async ({
    page,
    request,
  }) => {
    const boss = await createAccount(request, uniqueEmail('admin'));
    const domain = boss.email.split('@')[1]!;
    admin('domain', 'admin', 'add', domain, boss.email);
    const other = await createAccount(request, `other-${Date.now().toString(36)}@${domain}`);
    await page.setViewportSize(PHONE);
    await signInWithStorage(page, boss, '/app/admin');
    const nav = page.getByRole('navigation', { name: adminT('nav.label') });
    await expect(nav.getByRole('link')).toHaveCount(7);
    const row = nav.getByRole('list');
    // Nothing hidden sideways (a scrolling row cut "Sign-up rul"): the pills wrap, in at most three rows.
    expect(await row.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect((await boxOf(row)).height).toBeLessThan(3 * 48);
    const rowBox = await boxOf(row);
    for (const tab of await nav.getByRole('link').all()) {
      const b = await boxOf(tab);
      expect(b.x).toBeGreaterThanOrEqual(rowBox.x - 1);
      expect(b.x + b.width).toBeLessThanOrEqual(rowBox.x + rowBox.width + 1);
      expect(await tab.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
    expect(await overflowOf(page)).toBeLessThanOrEqual(0);
    await page.goto('/app/admin/administrators');
    await expect(nav.locator('[aria-current="page"]')).toHaveAccessibleName(adminT('nav.admins'));
    await expect(nav.locator('[aria-current="page"]')).toBeInViewport();

    await page.goto('/app/admin');
    const people = page.getByRole('region', { name: adminT('people.title'), exact: true });
    await expect(people.getByRole('heading', { level: 2, name: adminT('people.title'), exact: true })).toBeVisible();
    // The section is a full-width band: its rows get 320 px of the 360, not 264 inside a second frame.
    expect(await contentWidth(people)).toBeGreaterThanOrEqual(320);
    const person = people.getByRole('listitem', { name: `${other.firstName} ${other.lastName}` });
    const deactivate = person.getByRole('button', { name: adminT('people.actions.deactivate') });
    await expect(deactivate).toHaveClass(/btn--quiet-danger/);
    expect(await background(deactivate)).not.toBe(FILLED_RED);
    await deactivate.click();
    const dialog = page.getByRole('dialog');
    const confirm = dialog.getByRole('button', { name: adminT('people.actions.deactivate') });
    // Filled red only where it is done: the confirmation's own button.
    expect(await background(confirm)).toBe(FILLED_RED);
    await dialog.getByRole('button', { name: adminT('cancel') }).click();
    await expect(dialog).toHaveCount(0);
    await shots(page, 'admin-people-en');
    await inLanguage(page, 'hi');
    await expect(page.locator('main .person').first()).toBeVisible();
    await shots(page, 'admin-people-hi');
  });

  test('Meetings: Join is secondary in rows, a meeting not started is deleted (not "ended"), the default says who set it', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await page.setViewportSize(PHONE);
    await signInWithStorage(page, account, '/app');
    const panel = page.getByRole('region', { name: meetingT('panel.title') });
    await expect(panel.getByTestId('meeting-access').locator('option').first()).toHaveText(meetingT('access.default'));
    // Toasts rise above the bottom bar of sections instead of covering its labels.
    const [bar, toasts] = [await boxOf(page.locator('.home-nav')), await boxOf(page.locator('.toast-region'))];
    expect(toasts.y + toasts.height).toBeLessThanOrEqual(bar.y);
    for (const name of ['Stand-up', 'Review']) {
      await panel.getByLabel(meetingT('panel.name')).fill(name);
      await panel.getByRole('button', { name: meetingT('panel.later') }).click();
      await expect(panel.getByRole('listitem').filter({ hasText: name })).toBeVisible();
    }
    // The one primary action is "Start a meeting".
    await expect(panel.locator('.btn--primary')).toHaveCount(1);
    await expect(panel.locator('.btn--primary')).toHaveText(meetingT('panel.start'));
    const item = panel.getByRole('listitem').filter({ hasText: 'Review' });
    await expect(item.getByRole('link', { name: meetingT('panel.joinNamed', { name: 'Review' }) })).toHaveClass(
      /btn--secondary/,
    );
    expect(await contentWidth(page.locator('main .card').first())).toBeGreaterThanOrEqual(320);
    // Not started: "End meeting" would mean nothing; what the server does is kill its link, so: Delete.
    await expect(item.getByRole('button', { name: meetingT('panel.endNamed', { name: 'Review' }) })).toHaveCount(0);
    const remove = item.getByRole('button', { name: meetingT('panel.deleteNamed', { name: 'Review' }) });
    await expect(remove).toHaveClass(/btn--quiet-danger/);
    // A quiet red text link on every row: no fill, no outline; the filled red is the confirmation's.
    expect(await background(remove)).toBe('rgba(0, 0, 0, 0)');
    expect(await remove.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe('rgba(0, 0, 0, 0)');
    await shots(page, 'meetings-en');
    await remove.click();
    const dialog = page.getByRole('dialog', { name: meetingT('panel.deleteTitleNamed', { name: 'Review' }) });
    await expect(dialog).toContainText(meetingT('panel.deleteText'));
    await dialog.getByRole('button', { name: meetingT('panel.delete') }).click();
    await expect(panel.getByRole('listitem').filter({ hasText: 'Review' })).toHaveCount(0);
    await expect(panel.getByRole('listitem').filter({ hasText: 'Stand-up' })).toBeVisible();
    await inLanguage(page, 'hi');
    await expect(page.locator('main .card').first().getByRole('listitem').first()).toBeVisible();
    await shots(page, 'meetings-hi');
  });

  test('Files: an empty state with the upload, one Copy per link, a select of its own width, the true sentence', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await signInWithStorage(page, account, '/app/files');
    const files = new FilesPanel(page);
    const empty = files.root.locator('.files__empty');
    await expect(empty).toContainText(filesT('empty'));
    await expect(empty.locator('button', { hasText: filesT('choose') })).toBeVisible();
    await shots(page, 'files-empty-en');
    await files.upload({ name: 'plan.txt', mimeType: 'text/plain', buffer: Buffer.from('the plan') });
    await expect(empty).toHaveCount(0);
    const item = files.item('plan.txt');
    await item.getByRole('button', { name: filesT('share') }).click();
    const select = item.getByLabel(filesT('expiry'));
    expect((await boxOf(select)).width).toBeLessThan(300);
    const create = item.getByRole('button', { name: filesT('createLink') });
    // On a phone "Create link" keeps its words on one line beside the expiry.
    await page.setViewportSize(PHONE);
    expect((await boxOf(create)).height).toBeLessThan(52);
    expect(Math.abs((await boxOf(create)).y - (await boxOf(select)).y)).toBeLessThanOrEqual(4);
    await page.setViewportSize({ width: 1280, height: 800 });
    await create.click();
    const field = item.getByLabel(filesT('newLink'));
    await expect(field).toHaveValue(/share_key=/);
    // The focus moved on to the new link: "Create link" is left at rest.
    await expect(field).toBeFocused();
    await expect(create).not.toBeFocused();
    await expect(item).toContainText(filesT('newLinkHint'));
    await expect(item).not.toContainText('shown only once');
    // One Copy for the one link: the new link's own, not a second one in the list below.
    await expect(item.getByRole('button', { name: /^Copy/ })).toHaveCount(1);
    const remove = item.getByRole('button', { name: filesT('delete') });
    await expect(remove).toHaveClass(/btn--quiet-danger/);
    await page.setViewportSize(PHONE);
    // On a phone "Hide links" and "Delete" split their row evenly.
    const hide = item.getByRole('button', { name: filesT('hideLinks') });
    const [h, d] = [await boxOf(hide), await boxOf(remove)];
    expect(Math.abs(h.width - d.width)).toBeLessThanOrEqual(2);
    expect(Math.abs(h.y - d.y)).toBeLessThanOrEqual(2);
    expect(await contentWidth(page.locator('main .card').first())).toBeGreaterThanOrEqual(320);
    await page.setViewportSize({ width: 1280, height: 800 });
    await shots(page, 'files-link-en');
    await inLanguage(page, 'hi');
    await expect(page.locator('.files__empty')).toHaveCount(0);
    await page.locator('main .card').first().getByRole('listitem').first().getByRole('button').first().click();
    await shots(page, 'files-link-hi');
  });

  test('Security: "Add a passkey" sits as close to its text as the two-step actions do to theirs', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await signInWithStorage(page, account, '/app/security');
    const secT = texts('en', 'security');
    const add = page.getByRole('button', { name: secT('passkeys.add') });
    const turnOn = page.getByRole('button', { name: secT('totp.turnOn') });
    await expect(add).toBeVisible();
    await expect(turnOn).toBeVisible();
    const gapAbove = (button: Locator) =>
      button.evaluate((el) => {
        const actions = el.parentElement!;
        let previous = actions.previousElementSibling;
        while (previous && previous.getBoundingClientRect().height === 0) previous = previous.previousElementSibling;
        return actions.getBoundingClientRect().top - previous!.getBoundingClientRect().bottom;
      });
    const [passkeys, twoStep] = [await gapAbove(add), await gapAbove(turnOn)];
    expect(Math.abs(passkeys - twoStep)).toBeLessThanOrEqual(2);
    await shots(page, 'security-en');
    await inLanguage(page, 'hi');
    await expect(page.locator('main .card').first()).toBeVisible();
    await shots(page, 'security-hi');
  });
});
