import type { ReactNode } from 'react';

/**
 * Thrown by a screen whose API answered 404 for the whole page (e.g. the admin console for someone who
 * administers nothing): the router shows the not-found page in its place, as for an unknown address.
 */
export class PageNotFound extends Error {
  constructor() {
    super('page not found');
  }
}

/**
 * Thrown by a screen outside the shared frame (the meeting page) when the whole page became a dead end
 * (a meeting that is not there, a link no longer valid, a browser that cannot join): the router shows
 * `page` in its place inside the frame, so that the footer and its language switch are there again.
 */
export class FramedDeadEnd extends Error {
  constructor(readonly page: ReactNode) {
    super('dead end');
  }
}
