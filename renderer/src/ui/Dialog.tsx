import { useEffect, useRef, type ReactNode } from 'react';

type Props = {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Element id inside the dialog to focus first (defaults to the first control). */
  initialFocus?: string;
  /** Room for side-by-side content (the receipt beside its QR code). */
  wide?: boolean;
};

/**
 * A modal on the native <dialog>: the browser traps focus, makes the page behind inert for screen readers
 * and closes on Escape, which a hand-rolled overlay would have to imitate.
 */
export function Dialog({ title, onClose, children, initialFocus, wide }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!d.open) d.showModal();
    if (initialFocus) document.getElementById(initialFocus)?.focus();
    const onCancel = (e: Event) => {
      e.preventDefault();
      closeRef.current();
    };
    d.addEventListener('cancel', onCancel);
    return () => {
      d.removeEventListener('cancel', onCancel);
      if (d.open) d.close();
      returnTo?.focus();
    };
  }, [initialFocus]);
  const titleId = `dlg-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <dialog ref={ref} className={`dialog${wide ? ' dialog-wide' : ''}`} aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
