import { forwardRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField, type TextFieldProps } from './text-field';

/** Password input with a show/hide toggle. */
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
            aria-label={visible ? t('password.hide') : t('password.show')}
            onClick={() => setVisible((v) => !v)}
          >
            {visible ? t('password.hideShort') : t('password.showShort')}
          </button>
        }
      />
    );
  },
);
