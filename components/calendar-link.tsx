/** "Maintenance calendar (iCalendar)": subscribe to `href` from a calendar client. */
export function CalendarLink({ href, label }: { href: string; label: string }) {
  return (
    <p className="feed-links">
      {label}: <a href={href} type="text/calendar">Maintenance calendar (iCalendar)</a>
    </p>
  );
}
