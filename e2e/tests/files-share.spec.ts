import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { test, expect, createAccount, signInWithStorage, expectAccessible, screenshots } from '../fixtures/test';
import { FilesPanel } from '../pages/files-panel';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

test.describe('shared files', () => {
  test('upload, share, and a logged-out visitor downloads exactly that file', async ({ page, browser, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const account = await createAccount(page.request);
    await signInWithStorage(page, account, '/app/files');
    const panel = new FilesPanel(page);
    await expect(panel.root).toBeVisible();

    const original = randomBytes(700 * 1024);
    const name = 'Quarterly report – “final” ✓.bin';
    await panel.upload({ name, mimeType: 'application/octet-stream', buffer: original });
    await expect(panel.item(name)).toContainText(/700 kB/i);

    const url = await panel.createLink(name, 'In 1 day');
    expect(url.startsWith('http://127.0.0.1:')).toBe(true);
    await panel.item(name).getByRole('button', { name: 'Copy link' }).click();
    await expect(panel.item(name).getByText('Link copied to the clipboard.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await expect(panel.item(name).getByText('Active', { exact: true })).toBeVisible();
    await expectAccessible(page, 'files panel');
    await screenshots(page, 'files-panel');

    // A stranger: a fresh context with no session.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    const arrived = visitor.waitForEvent('download');
    await visitor.goto(url);
    await expect(visitor.getByRole('heading', { name: /^Your download (is ready|has started)$/ })).toBeVisible();
    await expect(visitor.getByText(name)).toBeVisible();
    // Who shared it, by name (never the address); no finished progress bar left beside "ready".
    await expect(visitor.getByText('Shared by Ada Lovelace')).toBeVisible();
    await expect(visitor.getByText(account.email)).toHaveCount(0);
    await expect(visitor.getByRole('progressbar')).toHaveCount(0);
    const download = await arrived;
    // The page says the download started (it no longer promises it "in a moment").
    await expect(visitor.getByRole('heading', { name: 'Your download has started' })).toBeVisible();
    expect(download.suggestedFilename()).toBe(name);
    expect(sha256(await readFile((await download.path())!))).toBe(sha256(original));
    await expectAccessible(visitor, 'download validated');
    await screenshots(visitor, 'file-download-validated');

    const again = visitor.waitForEvent('download');
    await visitor.getByRole('link', { name: 'Download again' }).click();
    expect(sha256(await readFile((await (await again).path())!))).toBe(sha256(original));

    // Revoked: the same link now says it is not valid.
    await panel
      .item(name)
      .getByRole('button', { name: /^Revoke the link/ })
      .click();
    await expect(panel.item(name).getByText('Revoked', { exact: true })).toBeVisible();
    await visitor.goto(url);
    await expect(visitor.getByRole('heading', { name: 'Invalid download link' })).toBeVisible();
    // What to do is said, and there is a way home.
    await expect(visitor.getByText(/ask the sender for a new link/)).toBeVisible();
    await visitor.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(visitor).toHaveURL(/\/user\/login$/);
    await visitorContext.close();
  });

  test('a slow upload shows its progress; a file over the limit is refused before it is sent', async ({ page }) => {
    const account = await createAccount(page.request);
    await signInWithStorage(page, account, '/app/files');
    const panel = new FilesPanel(page);
    // A 256 kB/s uplink (Chromium's network emulation): 1 MB takes about four seconds to go.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });
    await panel.root.locator('input[type="file"]').setInputFiles({
      name: 'slow.bin',
      mimeType: 'application/octet-stream',
      buffer: randomBytes(1024 * 1024),
    });
    const bar = panel.root.getByRole('progressbar', { name: /slow\.bin/ });
    await expect(bar).toBeVisible();
    await expect
      .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await expect(panel.root.getByRole('status').filter({ hasText: /Uploading slow\.bin… \d+%/ })).toBeVisible();
    await expect(panel.root.getByText('“slow.bin” was uploaded.')).toBeVisible({ timeout: 20_000 });
    await expect(bar).toBeHidden();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });

    // A deployment with a 1 kB limit (MAX_UPLOAD_MB as the page reads it from /api/config).
    await page.route('**/api/config', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), maxUploadBytes: 1024 } });
    });
    await page.reload();
    let uploads = 0;
    page.on('request', (r) => (r.method() === 'POST' && r.url().endsWith('/api/files') ? uploads++ : null));
    await panel.root.locator('input[type="file"]').setInputFiles({
      name: 'big.bin',
      mimeType: 'application/octet-stream',
      buffer: randomBytes(4096),
    });
    await expect(panel.root.getByText('This file is larger than the allowed size (1 kB).')).toBeVisible();
    expect(uploads).toBe(0);
    await expectAccessible(page, 'upload refused');
  });

  test('an expired link shows the expired state', async ({ page, request }) => {
    const account = await createAccount(request);
    const auth = { authorization: `Bearer ${account.token}` };
    const upload = await request.post('/api/files', {
      headers: auth,
      multipart: { file: { name: 'old.txt', mimeType: 'text/plain', buffer: Buffer.from('old news') } },
    });
    expect(upload.status()).toBe(201);
    const file = (await upload.json()) as { _id: string };
    const created = await request.post(`/api/files/${file._id}/shares`, {
      headers: auth,
      data: { expires_at: new Date(Date.now() + 1500).toISOString() },
    });
    const link = (await created.json()) as { url: string; share_key: string };
    // Wait for the expiry on the server's clock rather than guessing a delay.
    await expect
      .poll(
        async () => (await request.get(`/api/file/${file._id}/validating_link?share_key=${link.share_key}`)).status(),
        {
          timeout: 10_000,
        },
      )
      .toBe(410);

    await page.goto(link.url);
    await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('no longer valid');
    await expect(page.getByRole('link', { name: 'Download again' })).toHaveCount(0);
    await expectAccessible(page, 'download expired');
    await screenshots(page, 'file-download-expired');
  });

  test('an invalid link shows the invalid state, with or without a key', async ({ page }) => {
    // The link check is held until its "checking" status has been seen (it is otherwise gone in a blink).
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/file/*/validating_link*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/file/nope/download_link?share_key=${randomBytes(32).toString('base64url')}`);
    await expect(page.getByRole('status')).toContainText('checking your download link');
    release();
    await expect(page.getByRole('heading', { name: 'Invalid download link' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('not valid');
    await expectAccessible(page, 'download invalid');
    await screenshots(page, 'file-download-invalid');
    await page.goto('/file/nope/download_link');
    await expect(page.getByRole('heading', { name: 'Invalid download link' })).toBeVisible();
  });

  test('the download page speaks the browser language', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'pt-BR' });
    const page = await context.newPage();
    await page.goto('/file/nope/download_link?share_key=x');
    await expect(page.getByRole('heading', { name: 'Link de download inválido' })).toBeVisible();
    await context.close();
  });
});
