import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderServed, type Answer } from '../../components/testing';
import FileDownloadPage from './file-download-page';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** Serves `answer` for the validation call and records where the progress bar stood when it arrived. */
const open = (answer: Answer) =>
  renderServed(
    <FileDownloadPage />,
    { url: '/file/f1/download_link?share_key=k%2B1', path: '/file/:fileId/download_link' },
    answer,
  );

describe('share-link download page (spec §4)', () => {
  it('validates at 30, then clicks the forced download 1 s after the validated message', async () => {
    const clicks: { at: number; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ at: Date.now(), href: this.getAttribute('href') ?? '' });
    });
    const { progressAtCall, requests } = await open({
      status: 200,
      body: { name: 'report.pdf', size: 2048, content_type: 'application/pdf', shared_by: 'Grace Hopper' },
    });
    expect(await screen.findByRole('heading', { name: 'Preparing your download' })).toBeVisible();
    await screen.findByRole('heading', { name: 'Your download is ready' }, { timeout: 4000 });
    const shownAt = Date.now();
    expect(['20', '30']).toContain(progressAtCall[0]);
    expect(requests[0]!.url).toBe('/api/file/f1/validating_link?share_key=k%2B1');
    expect(screen.getByText('report.pdf')).toBeVisible();
    expect(screen.getByText('Shared by Grace Hopper')).toBeVisible();
    // Finished: no full bar left beside "ready".
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(clicks).toHaveLength(0);
    await vi.waitFor(() => expect(clicks).toHaveLength(1), { timeout: 3000 });
    expect(clicks[0]!.at - shownAt).toBeGreaterThanOrEqual(900);
    expect(clicks[0]!.href).toBe('/api/file/f1/download_link?share_key=k%2B1&force_download=true');
    expect(screen.getByRole('link', { name: 'Download again' })).toBeVisible();
    expect(await screen.findByRole('heading', { name: 'Your download has started' })).toBeVisible();
  });

  it.each([
    ['ERR_FILE_LINK_INVALID', 404, 'Invalid download link', /not valid/],
    ['ERR_FILE_LINK_EXPIRED', 410, 'This link has expired', /no longer valid/],
    ['ERR_FILE_LINK_PROCESSING_FAILED', 500, 'We could not process this link', /could not be prepared/],
    ['ERR_SOMETHING_ELSE', 400, 'Could not download the file', /Something went wrong/],
  ])('shows %s as its title and _TEXT', async (code, status, title, text) => {
    await open({ status, body: { error_code: code, message: 'x' } });
    expect(await screen.findByRole('heading', { name: title }, { timeout: 4000 })).toBeVisible();
    expect(screen.getByText(text)).toBeVisible();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
  });

  it('names no one when the server does not (owner unknown or deactivated)', async () => {
    await open({ status: 200, body: { name: 'a.txt', size: 5, content_type: 'text/plain', shared_by: null } });
    await screen.findByRole('heading', { name: 'Your download is ready' }, { timeout: 4000 });
    expect(screen.queryByText(/Shared by/)).toBeNull();
  });
});
