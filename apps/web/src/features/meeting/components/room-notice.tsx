import type { ReactNode } from 'react';
import { useMeetingTitle } from '../lib/meeting-title';

/** One centered card for every state that is a message: notices, waiting, entering, left. */
export function RoomNotice(props: { title: string; children?: ReactNode; busy?: boolean; testId?: string }) {
  useMeetingTitle(props.title);
  return (
    <section className="meet-card stack meet-notice" aria-labelledby="notice-title" data-testid={props.testId}>
      {/* Waiting and entering change on their own: announce them politely. */}
      <div className="meet-notice__head" role={props.busy ? 'status' : undefined}>
        {props.busy ? <span className="meet-spinner" aria-hidden="true" /> : null}
        <h1 id="notice-title">{props.title}</h1>
      </div>
      {props.children}
    </section>
  );
}
