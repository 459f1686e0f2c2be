import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Address } from './address';
import './home-header.css';

export interface AvatarMenuItem {
  id: string;
  label: string;
  /** Red, for what ends something (sign out of every device). */
  danger?: boolean;
  onSelect: () => void;
}

/** Initials of a name, or the first letter of the address: what the round button shows. */
function initialsOf(name: string, email: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 0 ? [words[0], words.length > 1 ? words[words.length - 1] : ''] : [email];
  return letters
    .map((w) => Array.from(w ?? '')[0] ?? '')
    .join('')
    .toUpperCase();
}

/**
 * The account's menu button (WAI-ARIA menu button pattern): Enter, Space or ArrowDown open it on the first
 * item, ArrowUp on the last; arrows, Home and End move between items; Escape closes it and gives the
 * focus back to the button; Tab or a click elsewhere closes it. Who is signed in shows above the items,
 * outside the menu itself (a menu holds only items).
 */
export function AvatarMenu(props: { name: string; email: string; label: string; items: AvatarMenuItem[] }) {
  const { name, email, label, items } = props;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const menuId = useId();

  useEffect(() => {
    if (open) itemRefs.current[active]?.focus();
  }, [open, active]);

  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const openAt = (index: number) => {
    setActive(index);
    setOpen(true);
  };
  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) buttonRef.current?.focus();
  };

  function onButtonKey(event: KeyboardEvent) {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') openAt(0);
    else if (event.key === 'ArrowUp') openAt(items.length - 1);
    else return;
    event.preventDefault();
  }
  function onMenuKey(event: KeyboardEvent) {
    const last = items.length - 1;
    if (event.key === 'ArrowDown') setActive((i) => (i >= last ? 0 : i + 1));
    else if (event.key === 'ArrowUp') setActive((i) => (i <= 0 ? last : i - 1));
    else if (event.key === 'Home') setActive(0);
    else if (event.key === 'End') setActive(last);
    else if (event.key === 'Escape') close(true);
    else if (event.key === 'Tab') {
      setOpen(false);
      return;
    } else return;
    event.preventDefault();
  }

  return (
    <div className="avatar-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="avatar-menu__button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onButtonKey}
      >
        <span aria-hidden="true">{initialsOf(name, email)}</span>
      </button>
      {open && (
        <div className="avatar-menu__popup">
          <div className="avatar-menu__who">
            {name && <span className="avatar-menu__name">{name}</span>}
            <span className="avatar-menu__email" translate="no">
              <Address email={email} />
            </span>
          </div>
          <ul id={menuId} role="menu" aria-label={label} className="avatar-menu__items" onKeyDown={onMenuKey}>
            {items.map((item, index) => (
              <li key={item.id} role="none">
                <button
                  ref={(el) => {
                    itemRefs.current[index] = el;
                  }}
                  type="button"
                  role="menuitem"
                  tabIndex={index === active ? 0 : -1}
                  className={`avatar-menu__item${item.danger ? ' avatar-menu__item--danger' : ''}`}
                  onClick={() => {
                    close(true);
                    item.onSelect();
                  }}
                >
                  {item.label}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
