import { lazy, Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation } from 'wouter';
import { useTranslation } from '../lib/i18n-react';
import { USER_COMPONENTS, USER_STEPS, type UserComponent } from '@suite/contract/core';
import { StepDots } from '../components/step-dots';
import { StepPicture, type PanelStep } from './step-pictures';
import { PageLoading } from '../components/page-loading';
import { isFirstEntry } from '../lib/navigation';
import type { Preloadable } from '../lib/preloadable';
import { FORM_PAGES, formFor, screenOf } from './routes';

/** Only an unknown /user/… address shows it: not part of the forms' first load. */
const NotFoundPage = lazy(() => import('./not-found-page'));

/** The forms a screen most likely leads to: their chunks are fetched while the user reads this one. */
const LIKELY_NEXT: Record<UserComponent, UserComponent[]> = {
  signup: ['check-token', 'welcome', 'login'],
  'check-token': ['welcome'],
  welcome: ['add-teammates'],
  'add-teammates': [],
  login: ['recovery-password', 'check-token', 'signup'],
  'recovery-password': ['check-token-recovery'],
  'check-token-recovery': ['update-password'],
  'update-password': [],
};

/** The code screen focuses its first box itself (spec §4); every other form focuses its first field. */
const FOCUSES_ITSELF: ReadonlySet<UserComponent> = new Set(['check-token', 'check-token-recovery']);

/** How long the outgoing form stays for its fade-out (matches .fade--out in ui.css). */
const FADE_OUT_MS = 150;

/** Each form's code and first texts (from the route table), one chunk per form (spec §2). */
const FORMS = Object.fromEntries(USER_COMPONENTS.map((name) => [name, screenOf(FORM_PAGES[name])])) as Record<
  UserComponent,
  Preloadable
>;

// (The form of the first address loads before the first render: router.tsx loadFirstRoute, in the page's language.)

const prefersReducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** What a form is typed into first; checkboxes and buttons are not where a caret goes. */
const FIRST_FIELD = 'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([disabled]), textarea';

/**
 * Runs once the form beside it has rendered (after its chunk loaded): the caret goes to the form's first
 * field, on arrival too (the person came to type); a form without one announces itself through its
 * heading after a move between steps. A person already in one of the form's fields (they clicked into
 * the prerendered page before the code ran) keeps the caret there: moved, what they type next would land
 * in another field.
 */
function FormFocus({ container, heading }: { container: RefObject<HTMLDivElement | null>; heading: boolean }) {
  useEffect(() => {
    const active = document.activeElement;
    if (active && active !== container.current && container.current?.contains(active)) return;
    const field = container.current?.querySelector<HTMLElement>(FIRST_FIELD);
    if (field) {
      field.focus();
      return;
    }
    const h1 = heading ? container.current?.querySelector<HTMLElement>('h1') : null;
    if (!h1) return;
    // A heading is not focusable by itself; -1 keeps it out of the Tab order.
    if (!h1.hasAttribute('tabindex')) h1.tabIndex = -1;
    h1.focus();
  }, [container, heading]);
  return null;
}

/** Once a form is on screen (its code and texts in), the forms it most likely leads to are fetched. */
function PrefetchNext({ name }: { name: UserComponent }) {
  useEffect(() => {
    const timer = window.setTimeout(
      () => LIKELY_NEXT[name].forEach((next) => void FORMS[next].load().catch(() => undefined)),
      300,
    );
    return () => window.clearTimeout(timer);
  }, [name]);
  return null;
}

function FormSlot({ name, leaving, focusHeading }: { name: UserComponent; leaving: boolean; focusHeading: boolean }) {
  const container = useRef<HTMLDivElement>(null);
  const { Screen: Form } = FORMS[name];
  // Every form takes the focus once (its first field); the code screen focuses its first box itself.
  const [moveFocus] = useState(!leaving && !FOCUSES_ITSELF.has(name));
  return (
    <div
      ref={container}
      // The first form of a visit is there at once (it comes prerendered); later ones fade in.
      className={leaving ? 'fade fade--out' : focusHeading ? 'fade fade--in' : 'fade'}
      data-form={name}
      inert={leaving || undefined}
      aria-hidden={leaving || undefined}
    >
      <Suspense fallback={<PageLoading />}>
        <Form />
        {moveFocus ? <FormFocus container={container} heading={focusHeading} /> : null}
        {leaving ? null : <PrefetchNext name={name} />}
      </Suspense>
    </div>
  );
}

/**
 * The left panel: the step's own picture, one sentence of what it is for and what comes next, the step
 * dots. It changes with the form, fading in with it.
 */
function StepPanel({ step, fade, sso = false }: { step: PanelStep; fade: boolean; sso?: boolean }) {
  const { t } = useTranslation('common');
  const variant = sso ? ' user-layout__panel--sso' : '';
  return (
    <div className={`user-layout__panel user-layout__panel--${step}${variant}${fade ? ' fade--in' : ''}`}>
      <div className="user-layout__art">
        <StepPicture step={step} />
      </div>
      <p className="user-layout__say">{sso ? t(`userLayout.sso.${step}`) : t(`userLayout.step.${step}`)}</p>
    </div>
  );
}

/** The forms whose panel promises a code, which a single-sign-on domain never gets from them. */
const hasSsoPanel = (name: UserComponent): name is 'signup' | 'recovery-password' =>
  name === 'signup' || name === 'recovery-password';

/** Two panels: illustration and step dots on the left, the form on the right; forms cross-fade. */
export default function UserLayout() {
  const [pathname] = useLocation();
  const componentUrl = formFor(pathname);
  const [shown, setShown] = useState(componentUrl);
  const [leaving, setLeaving] = useState<UserComponent | null>(null);
  // Arriving from another page of the app counts as a change too; the first page of a visit does not.
  const [changed, setChanged] = useState(() => !isFirstEntry());
  if (shown !== componentUrl) {
    // The outgoing form stays mounted (state and all) for its fade-out, unless motion is unwelcome.
    setShown(componentUrl);
    setLeaving(shown && !prefersReducedMotion() ? shown : null);
    setChanged(true);
  }

  useEffect(() => {
    if (!leaving) return;
    const timer = window.setTimeout(() => setLeaving(null), FADE_OUT_MS);
    return () => window.clearTimeout(timer);
  }, [leaving]);

  if (!componentUrl) return <NotFoundPage />;
  const steps = USER_STEPS[componentUrl];
  const slots = leaving && leaving !== componentUrl ? [leaving, componentUrl] : [componentUrl];
  return (
    <div className="user-layout">
      <aside className="user-layout__aside">
        <StepPanel key={componentUrl} step={componentUrl} fade={changed} />
        {/* The login's second step is a state of its form, not an address: frame.css shows this panel
            instead of the login's while that step's heading is in the card. */}
        {componentUrl === 'login' ? <StepPanel step="two-step" fade /> : null}
        {/* The same for an address whose domain signs in with single sign-on: the form says so through its
            data-sso, and frame.css shows this panel, which speaks of the provider instead of a code. */}
        {hasSsoPanel(componentUrl) ? <StepPanel step={componentUrl} sso fade /> : null}
        {steps ? <StepDots total={steps.total} index={steps.index} /> : <span />}
      </aside>
      <section className="user-layout__form">
        <div className="user-layout__stage">
          {slots.map((name) => (
            <FormSlot key={name} name={name} leaving={name !== componentUrl} focusHeading={changed} />
          ))}
        </div>
      </section>
    </div>
  );
}
