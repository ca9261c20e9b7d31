import type { ComponentChildren } from 'preact';
import { followLink } from '../router';

export function AppLink(props: { href: string; children: ComponentChildren; class?: string; title?: string; 'aria-current'?: 'page' | undefined }) {
  return (
    <a href={props.href} class={props.class} title={props.title} aria-current={props['aria-current']} onClick={followLink}>
      {props.children}
    </a>
  );
}
