import type { ReactNode } from 'react';
import { useMeetingTitle } from '../lib/meeting-title';

/**
 * One centered card for every state that is a message: notices, waiting, entering, left. `page`: a dead
 * end (not found, blocked) reads like the frame's other pages: at their place, text from the left edge.
 */
export function RoomNotice(props: {
  title: string;
  children?: ReactNode;
  busy?: boolean;
  testId?: string;
  page?: boolean;
}) {
  useMeetingTitle(props.title);
  return (
    <section
      className={`meet-card stack meet-notice${props.page ? ' meet-notice--page' : ''}`}
      aria-labelledby="notice-title"
      data-testid={props.testId}
    >
      {/* Waiting and entering change on their own: announce them politely. */}
      <div className="meet-notice__head" role={props.busy ? 'status' : undefined}>
        {props.busy ? <span className="meet-spinner" aria-hidden="true" /> : null}
        <h1 id="notice-title">{props.title}</h1>
      </div>
      {props.children}
    </section>
  );
}
