import { useEffect } from "react";

/** A page's one h1, also its document title (what a screen reader and a tab announce). */
export function PageHeading({ title }: { title: string }) {
  useEffect(() => {
    document.title = `${title} · Sweep console`;
  }, [title]);
  return <h1>{title}</h1>;
}
