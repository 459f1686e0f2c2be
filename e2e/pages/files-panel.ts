import { expect, type Locator, type Page } from '@playwright/test';

/** The Files card of the signed-in home. */
export class FilesPanel {
  readonly root: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByRole('region', { name: 'Files' });
  }

  async upload(file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
    await this.root.locator('input[type="file"]').setInputFiles(file);
    await expect(this.root.getByText(`“${file.name}” was uploaded.`)).toBeVisible();
  }

  item(name: string): Locator {
    return this.root.getByRole('listitem').filter({ has: this.page.getByRole('heading', { name, exact: true }) });
  }

  /** Opens the file's links, creates one with the chosen expiry and returns its URL. */
  async createLink(name: string, expiry: string): Promise<string> {
    const item = this.item(name);
    await item.getByRole('button', { name: 'Share' }).click();
    await item.getByLabel('Link expires').selectOption({ label: expiry });
    await item.getByRole('button', { name: 'Create link' }).click();
    const field = item.getByLabel('New share link');
    await expect(field).toHaveValue(/\/file\/.+\/download_link\?share_key=/);
    return field.inputValue();
  }
}
