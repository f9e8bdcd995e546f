import { Link } from "react-router";
import { PageHeading } from "../page-heading";

export function NotFoundPage() {
  return (
    <>
      <PageHeading title="Page not found" />
      <p>
        There is no such page in the console. <Link to="/">Go to the overview</Link>.
      </p>
    </>
  );
}
