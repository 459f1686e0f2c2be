import { forwardRef, useState } from 'react';
import { useTranslation } from '../lib/i18n-react';
import { Icon } from './icon';
import { TextField, type TextFieldProps } from './text-field';

/**
 * Password input with a show/hide toggle. One pattern only: a toggle button with a constant name
 * ("Show password") whose state is aria-pressed; the eye icon shows the state to sighted users.
 */
export const PasswordField = forwardRef<HTMLInputElement, Omit<TextFieldProps, 'type' | 'trailing'>>(
  function PasswordField(props, ref) {
    const { t } = useTranslation('common');
    const [visible, setVisible] = useState(false);
    return (
      <TextField
        ref={ref}
        type={visible ? 'text' : 'password'}
        autoCapitalize="none"
        spellCheck={false}
        {...props}
        trailing={
          <button
            type="button"
            className="field__toggle"
            aria-pressed={visible}
            aria-label={t('password.show')}
            title={t('password.show')}
            onClick={() => setVisible((v) => !v)}
          >
            <EyeIcon crossed={visible} />
          </button>
        }
      />
    );
  },
);

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <Icon>
      <path d="M1.5 12S5.5 4.5 12 4.5 22.5 12 22.5 12 18.5 19.5 12 19.5 1.5 12 1.5 12Z" />
      <circle cx="12" cy="12" r="3.25" />
      {crossed ? <path d="M3.5 3.5l17 17" /> : null}
    </Icon>
  );
}
