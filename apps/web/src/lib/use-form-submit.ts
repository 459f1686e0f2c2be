import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { CaptchaAction } from '@suite/contract/core';
import { useConfig } from './config';
import { currentLanguage, hasTexts, loadTexts } from './i18n';
import { useErrorMessage } from './use-error-message';
import { takeEarlySubmit } from './typed-early';

/** Problems found before sending: messages by field name (in the fields' order), and a message for the form. */
export interface FormProblems<F extends string> {
  fields?: Partial<Record<F, string | undefined>>;
  form?: string;
  /** The field to focus when it is not the first one with a message (e.g. a form message about a field). */
  focus?: F;
}

/**
 * What a failed send means: a message under one field, one for the form, or null (handled: e.g. navigated).
 * The form's message is words, or the failure itself: shown as its localized text, looked up at each render.
 */
export type SubmitFailure<F extends string> = { field: F; message: string } | { form: unknown } | null;

export interface FormSubmitOptions<F extends string> {
  /** Checks the input before anything is sent; any problem stops the submit. */
  validate?: () => FormProblems<F> | undefined;
  /** reCAPTCHA action: its token (undefined without a site key or a reachable service) is given to send. */
  captcha?: CaptchaAction;
  /**
   * Sends (or the function given to `run`). When it resolves the screen moves on: the form stays busy and
   * ignores further submits.
   */
  send?: (captchaToken: string | undefined) => Promise<void>;
  /** What a failure means; default: the failure as the form message (its localized catalogue text). */
  failure?: (error: unknown) => SubmitFailure<F>;
  /**
   * false: the form is used again after a send that worked (a panel of the signed-in home: create,
   * rename, revoke), so it stops being busy; default true (an entry form: the screen moves on).
   */
  movesOn?: boolean;
}

function focusField(form: HTMLElement | null, name: string): void {
  form?.querySelector<HTMLElement>(`[name="${name}"]`)?.focus();
}

/**
 * The one submit skeleton of every form (the entry forms and the signed-in home's panels): checks the fields, focuses the first one in error, guards
 * against a second submit (a ref: two submits in the same tick both see the old busy state), gets the
 * captcha token, sends, and maps a failure to a field or form message. Fields are found by their `name`.
 */
export function useFormSubmit<F extends string = string>(options: FormSubmitOptions<F>) {
  const config = useConfig();
  const errorMessage = useErrorMessage();
  const [busy, setBusy] = useState(false);
  // Words, or a failure translated at render (the error texts may arrive after it): see useErrorMessage.
  const [error, setError] = useState<unknown>(null);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<F, string>>>({});
  const inFlight = useRef(false);
  // A form sent before the app hydrated the page is sent again once it has, after the render that took
  // in what was typed before (the fields hand it over in their own first effects, this state comes with it).
  const [early, setEarly] = useState<HTMLFormElement | undefined>();
  useEffect(() => setEarly(takeEarlySubmit()), []);
  useEffect(() => {
    if (!early) return;
    setEarly(undefined);
    early.requestSubmit();
  }, [early]);

  /** Runs one submit; `form` is where fields in error are looked up for focus. */
  async function run(form: HTMLElement | null, send = options.send): Promise<void> {
    if (!send) return;
    if (inFlight.current) return;
    setError(null);
    let problems = options.validate?.();
    // The error texts come just after the first paint (useErrorMessage): problems found before them are
    // checked again once they are in, so that they are said in words (a valid submit does not wait).
    if (
      (problems?.form || Object.values(problems?.fields ?? {}).some(Boolean)) &&
      !hasTexts(currentLanguage(), 'errors')
    ) {
      await loadTexts(currentLanguage(), 'errors').catch(() => undefined);
      problems = options.validate?.();
    }
    const fields = Object.fromEntries(
      Object.entries(problems?.fields ?? {}).filter(([, message]) => message),
    ) as Partial<Record<F, string>>;
    setFieldErrors(fields);
    const first = problems?.focus ?? (Object.keys(fields)[0] as F | undefined);
    if (first || problems?.form) {
      if (problems?.form) setError(problems.form);
      if (first) focusField(form, first);
      return;
    }
    inFlight.current = true;
    setBusy(true);
    try {
      // The reCAPTCHA loader is fetched only where a site key is set (no key: no token, as captchaToken answers).
      const token =
        options.captcha && config.captchaSiteKey
          ? await (await import('./captcha')).captchaToken(config.captchaSiteKey, options.captcha)
          : undefined;
      await send(token);
      if (options.movesOn === false) {
        inFlight.current = false;
        setBusy(false);
      }
    } catch (caught) {
      inFlight.current = false;
      setBusy(false);
      const failure = options.failure ? options.failure(caught) : { form: caught };
      if (failure && 'field' in failure) {
        setFieldErrors({ [failure.field]: failure.message } as Partial<Record<F, string>>);
        focusField(form, failure.field);
      } else if (failure) setError(failure.form);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    void run(event.currentTarget);
  }

  /** For an input's onChange: its message goes once the user edits it. */
  function clearFieldError(field: F): void {
    setFieldErrors((found) => (found[field] ? { ...found, [field]: undefined } : found));
  }

  /**
   * What ties a required input to the form: its name, value and message, and a change handler that stores
   * the value (the message goes once the user edits it).
   */
  function field(name: F, value: string, store: (value: string) => void) {
    return {
      name,
      value,
      required: true,
      error: fieldErrors[name],
      onChange: (event: { target: { value: string } }) => {
        store(event.target.value);
        clearFieldError(name);
        // The form's message was about what is being changed: it goes with its cause, not stays stale.
        setError(null);
      },
    };
  }

  /** For an input's onBlur: a filled-in field is checked at once; an empty one keeps its message. */
  function checkField(field: F, value: string, problem: (value: string) => string | undefined): void {
    if (value) setFieldErrors((found) => ({ ...found, [field]: problem(value) }));
  }

  return {
    busy,
    error: error === null ? null : errorMessage(error),
    /** Words, a failure (shown as its localized text) or null. */
    setError,
    fieldErrors,
    clearFieldError,
    field,
    checkField,
    onSubmit,
    run,
  };
}
