import type { Page } from '@playwright/test';

/**
 * The fonts Chromium drew the text of the first element matching `selector` with (DevTools' "Rendered
 * Fonts"), by the name each font file gives itself ("Poppins", "Poppins SemiBold"): what a person sees. document.fonts.check() says something else: whether
 * every face that covers the text has loaded (the page's own cut of Poppins covers it, the full file
 * that also does need not have).
 */
export async function renderedFonts(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts.map((font) => font.familyName);
  } finally {
    await cdp.detach();
  }
}
