import { getServerDb } from "@/db/server-db";
import { listVendorSummaries } from "@/db/vendors";
import { formatUtcMinute } from "@/lib/format";

export const dynamic = "force-dynamic";

export default function HomePage() {
  const vendors = listVendorSummaries(getServerDb());
  return (
    <>
      <h1>Vendors</h1>
      {vendors.length === 0 ? (
        <p>
          Nothing archived yet. Import snapshots with{" "}
          <code>npm run redline -- import &lt;dir&gt; --vendor &lt;slug&gt; --platform &lt;platform&gt;</code>.
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Vendor</th>
              <th scope="col">Platform</th>
              <th scope="col" className="number">Incidents</th>
              <th scope="col">Last change (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {vendors.map((v) => (
              <tr key={v.slug}>
                <td>{v.name}</td>
                <td><code>{v.platform}</code></td>
                <td className="number">{v.incidentCount}</td>
                <td>{v.lastChangedAt ? formatUtcMinute(v.lastChangedAt) : "never"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
