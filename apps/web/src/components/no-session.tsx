import { Link } from 'wouter';
import { Alert } from './alert';
import './auth-form.css';

/** A flow screen opened without what it needs (a session, the address a code went to): say so, link back. */
export function NoSession(props: { title: string; message: string; linkTo: string; linkText: string }) {
  return (
    <div className="auth-form">
      <h1>{props.title}</h1>
      <Alert variant="info">{props.message}</Alert>
      <Link to={props.linkTo}>{props.linkText}</Link>
    </div>
  );
}
