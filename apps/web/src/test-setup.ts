import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
// The screens load the contract's zod schemas on first use (lazySchema); loading them once here keeps
// that first transform of zod out of the tests' waiting times.
import '@suite/contract';

afterEach(() => {
  cleanup();
  localStorage.clear();
});
