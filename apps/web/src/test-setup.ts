import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
// The screens load the contract's zod schemas on first use (lazySchema); loading them once here keeps
// that first transform of zod out of the tests' waiting times.
import '@suite/contract';
// toBeVisible(), toHaveTextContent()…: assertions on what the person sees.
import '@testing-library/jest-dom/vitest';

// findBy… and waitFor wait for what the person would see, bounded: the default second is too short on
// a loaded machine, where a screen's first lazy import alone can take longer.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
