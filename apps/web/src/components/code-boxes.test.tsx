import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { CODE_REFOCUS_MS } from '@suite/contract/core';
import { CodeBoxes, type CodeBoxesHandle } from './code-boxes';

function setup() {
  const onComplete = vi.fn();
  const ref = createRef<CodeBoxesHandle>();
  render(
    <>
      <CodeBoxes ref={ref} label="Code" digitLabel={(n) => `Digit ${n}`} onComplete={onComplete} />
      <button type="button">elsewhere</button>
    </>,
  );
  const box = (n: number) => screen.getByLabelText(`Digit ${n}`) as HTMLInputElement;
  return { onComplete, ref, box };
}

describe('CodeBoxes', () => {
  afterEach(() => vi.useRealTimers());

  it('focuses the first box, takes digits only and moves on with each one', () => {
    const { box } = setup();
    expect(document.activeElement).toBe(box(1));
    fireEvent.change(box(1), { target: { value: 'x' } });
    expect(box(1).value).toBe('');
    fireEvent.change(box(1), { target: { value: '7' } });
    expect(box(1).value).toBe('7');
    expect(document.activeElement).toBe(box(2));
  });

  it('submits once all six are filled, and clear() empties them and refocuses the first', () => {
    const { box, onComplete, ref } = setup();
    '123456'.split('').forEach((d, i) => fireEvent.change(box(i + 1), { target: { value: d } }));
    expect(onComplete).toHaveBeenCalledWith('123456');
    act(() => ref.current?.clear());
    for (let n = 1; n <= 6; n++) expect(box(n).value).toBe('');
    expect(document.activeElement).toBe(box(1));
  });

  it('Backspace in an empty box clears the previous digit, and again the one before', () => {
    const { box } = setup();
    fireEvent.change(box(1), { target: { value: '4' } });
    fireEvent.change(box(2), { target: { value: '2' } });
    fireEvent.keyDown(box(3), { key: 'Backspace' });
    expect(box(2).value).toBe('');
    expect(document.activeElement).toBe(box(2));
    fireEvent.keyDown(box(2), { key: 'Backspace' });
    expect(box(1).value).toBe('');
    expect(document.activeElement).toBe(box(1));
  });

  it('reads Devanagari digits as the same digits', () => {
    const { box, onComplete } = setup();
    fireEvent.paste(box(1), { clipboardData: { getData: () => '१२३४५६' } });
    expect(onComplete).toHaveBeenCalledWith('123456');
  });

  it('pasting a six-digit code fills every box and submits', () => {
    const { box, onComplete } = setup();
    fireEvent.paste(box(3), { clipboardData: { getData: () => ' 987-654 ' } });
    expect([1, 2, 3, 4, 5, 6].map((n) => box(n).value).join('')).toBe('987654');
    expect(onComplete).toHaveBeenCalledWith('987654');
  });

  it('stops refocusing the first box once the focus went elsewhere', () => {
    vi.useFakeTimers();
    const { box } = setup();
    const other = screen.getByRole('button', { name: 'elsewhere' });
    other.focus();
    act(() => vi.advanceTimersByTime(3 * CODE_REFOCUS_MS));
    expect(document.activeElement).toBe(other);
    expect(document.activeElement).not.toBe(box(1));
  });

  it('gives the first box the focus within about a second when it never had it', () => {
    vi.useFakeTimers();
    // The focus on mount does not happen (e.g. the browser refused it while the page was loading).
    const focus = vi.spyOn(HTMLElement.prototype, 'focus').mockImplementationOnce(() => undefined);
    const { box } = setup();
    focus.mockRestore();
    expect(document.activeElement).not.toBe(box(1));
    act(() => vi.advanceTimersByTime(CODE_REFOCUS_MS));
    expect(document.activeElement).toBe(box(1));
  });
});
