import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

/** One entry of a room menu: an action, or a link that opens in a new tab. */
export type RoomMenuItem =
  | { label: string; icon: ReactNode; onSelect: () => void }
  | {
      label: string;
      icon: ReactNode;
      href: string;
    };

/**
 * A menu button of the room bar (WAI-ARIA menu button pattern): the button says it opens a menu and
 * whether it is open; opening puts the focus on the first item, arrows and Home/End move between items,
 * Escape closes and gives the focus back to the button, Tab or a click elsewhere closes.
 */
export function RoomMenu(props: { label: string; className?: string; children: ReactNode; items: RoomMenuItem[] }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const entries = () => [...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open) return;
    entries()[0]?.focus();
    const outside = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const items = entries();
    const at = items.indexOf(document.activeElement as HTMLElement);
    const move: Record<string, number> = {
      ArrowDown: (at + 1) % items.length,
      ArrowUp: (at - 1 + items.length) % items.length,
      Home: 0,
      End: items.length - 1,
    };
    if (e.key === 'Escape') {
      e.preventDefault();
      // Inside a dialog-less page Escape only closes the menu; it must not reach anything else.
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') {
      setOpen(false);
    } else if (e.key in move) {
      e.preventDefault();
      items[move[e.key]!]?.focus();
    }
  };

  return (
    <div className="meet-menu" ref={root} onKeyDown={open ? onKeyDown : undefined}>
      <button
        ref={button}
        type="button"
        className={`meet-ctl ${props.className ?? ''}`}
        aria-label={props.label}
        data-tip={props.label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (!open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        {props.children}
      </button>
      {open ? (
        <ul className="meet-menu__list" role="menu" id={id} aria-label={props.label} ref={list}>
          {props.items.map((item) => (
            <li key={item.label} role="none">
              {'href' in item ? (
                <a
                  role="menuitem"
                  tabIndex={-1}
                  className="meet-menu__item"
                  href={item.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  onClick={() => close(true)}
                >
                  {item.icon}
                  {item.label}
                </a>
              ) : (
                <button
                  role="menuitem"
                  tabIndex={-1}
                  type="button"
                  className="meet-menu__item"
                  onClick={() => {
                    close(true);
                    item.onSelect();
                  }}
                >
                  {item.icon}
                  {item.label}
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
