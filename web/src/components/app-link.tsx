import type { ComponentChildren } from 'preact';
import { followLink } from '../router';

export function AppLink(props: { href: string; children: ComponentChildren; class?: string; 'aria-current'?: 'page' | undefined }) {
  return (
    <a href={props.href} class={props.class} aria-current={props['aria-current']} onClick={followLink}>
      {props.children}
    </a>
  );
}
