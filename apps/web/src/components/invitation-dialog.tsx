import { useTranslation } from '../lib/i18n-react';
import { Button } from './button';
import { InvitationLink } from './invitation-link';
import { ModalDialog } from './modal-dialog';
import './auth-form.css';
import './dialog.css';

/**
 * "Invite your teammates" from the account menu: the team's invitation link (copy, make a new one, turn
 * it off) in a focused dialog, reachable from every section, where a person looks for it, rather than
 * under one section's content. Loaded when first opened.
 */
export default function InvitationDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('common');
  return (
    <ModalDialog titleId="invite-link-title" className="dialog--task dialog--wide" onClose={onClose}>
      <InvitationLink manage />
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onClose}>
          {t('actions.close')}
        </Button>
      </div>
    </ModalDialog>
  );
}
