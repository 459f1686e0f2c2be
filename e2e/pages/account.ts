import { expect, type Locator, type Page } from '@playwright/test';
import { texts, type Lang } from './locale-texts';

/** Page objects of the account screens under /user/* and /confirm-invite, in any of the five languages. */
export class AccountScreens {
  readonly signupT;
  readonly codeT;
  readonly welcomeT;
  readonly teamT;
  readonly loginT;
  readonly recoveryT;
  readonly updateT;
  readonly inviteT;
  readonly commonT;
  readonly homeT;
  readonly errorsT;
  readonly ssoT;

  constructor(
    readonly page: Page,
    readonly lang: Lang = 'en',
  ) {
    this.signupT = texts(lang, 'signup');
    this.codeT = texts(lang, 'codeCheck');
    this.welcomeT = texts(lang, 'welcome');
    this.teamT = texts(lang, 'teammates');
    this.loginT = texts(lang, 'login');
    this.recoveryT = texts(lang, 'recovery');
    this.updateT = texts(lang, 'updatePassword');
    this.inviteT = texts(lang, 'invite');
    this.commonT = texts(lang, 'common');
    this.homeT = texts(lang, 'home');
    this.errorsT = texts(lang, 'errors');
    this.ssoT = texts(lang, 'sso');
  }

  /** A text or password input by its accessible name (labels of required fields carry a decorative "*"). */
  field(name: string): Locator {
    return this.page.getByRole('textbox', { name, exact: true });
  }

  heading(name: string): Locator {
    return this.page.getByRole('heading', { name, exact: true });
  }

  // Sign-up
  async signUp(email: string): Promise<void> {
    await expect(this.heading(this.signupT('title'))).toBeVisible();
    await this.field(this.signupT('email')).fill(email);
    await this.page.getByRole('button', { name: this.signupT('submit'), exact: true }).click();
  }

  // Code check
  digit(n: number): Locator {
    return this.field(this.codeT('digit', { n, total: 6 }));
  }
  async expectCodeScreen(email: string): Promise<void> {
    // The recovery code says it is one: its own heading, and the uniform "if an account exists" lead.
    await expect(this.page).toHaveURL(/\/user\/check-token(-recovery)?$/);
    const recovery = /check-token-recovery$/.test(this.page.url());
    await expect(this.heading(this.codeT(recovery ? 'titleRecovery' : 'title'))).toBeVisible();
    const lead = this.page.getByTestId('code-lead');
    await expect(lead).toContainText(this.codeT(recovery ? 'leadRecovery' : 'lead', { n: 6 }));
    await expect(lead.getByTestId('address')).toHaveText(email);
    await expect(this.digit(1)).toBeFocused();
  }
  /** Types the code digit by digit; focus moves on by itself and the sixth digit submits. */
  async typeCode(code: string): Promise<void> {
    await this.digit(1).click();
    await this.page.keyboard.type(code, { delay: 30 });
  }
  async expectBoxesEmpty(): Promise<void> {
    for (let n = 1; n <= 6; n++) await expect(this.digit(n)).toHaveValue('');
  }

  // Welcome
  async register(first: string, last: string, password: string): Promise<void> {
    await expect(this.heading(this.welcomeT('title'))).toBeVisible();
    await this.field(this.welcomeT('firstName')).fill(first);
    await this.field(this.welcomeT('lastName')).fill(last);
    await this.field(this.welcomeT('password')).fill(password);
    await this.page.getByRole('checkbox').check();
    await this.page.getByRole('button', { name: this.welcomeT('submit') }).click();
  }

  // Teammates
  teammate(n: number): Locator {
    return this.field(this.teamT('field', { n }));
  }

  // Login
  async logIn(email: string, password: string): Promise<void> {
    await expect(this.heading(this.loginT('title'))).toBeVisible();
    await this.field(this.loginT('email')).fill(email);
    await this.field(this.loginT('password')).fill(password);
    await this.page.getByRole('button', { name: this.loginT('submit'), exact: true }).click();
  }

  // Single sign-on
  /** The test OpenID provider's own sign-in page (apps/server/test/idp/oidc.ts): any password signs in. */
  async signInAtOidcProvider(): Promise<void> {
    await this.page.locator('input[name="password"]').fill('anything');
    await this.page.getByRole('button', { name: 'Sign-in' }).click();
  }
  /** A first single-sign-on sign-in: the terms alone, then the teammates step of a professional account. */
  async acceptSsoTerms(): Promise<void> {
    await expect(this.page).toHaveURL(/\/user\/welcome\?sso=1$/);
    await this.page.getByRole('checkbox').check();
    await this.page.getByRole('button', { name: this.welcomeT('ssoSubmit') }).click();
    await expect(this.page).toHaveURL(/\/user\/add-teammates$/);
  }

  // Signed-in home
  /** Opens a section of the home from its navigation (each section is its own address). */
  async openSection(section: 'meetings' | 'files' | 'security' | 'sessions'): Promise<void> {
    await this.page
      .getByRole('navigation', { name: this.homeT('nav.label') })
      .getByRole('link', { name: this.homeT(`nav.${section}`), exact: true })
      .click();
    await expect(this.page).toHaveURL(new RegExp(`/app/${section}$`));
  }

  /** Signs out from the account menu; the app shows the login screen. */
  async signOutFromMenu(): Promise<void> {
    // The header's one button: the account menu (its name holds the person's name).
    await this.page.getByRole('banner').getByRole('button').click();
    await this.page.getByRole('menuitem', { name: this.homeT('menu.signOut'), exact: true }).click();
  }

  async expectHome(email: string): Promise<void> {
    await expect(this.page).toHaveURL(/\/app$/);
    await expect(this.page.getByText(this.homeT('signedInAs', { email }))).toBeVisible();
  }
}
