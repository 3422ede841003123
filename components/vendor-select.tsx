/** A filter form's vendor picker: every vendor, or one, by slug. */
export function VendorSelect({ vendors, vendor }: { vendors: ReadonlyArray<{ slug: string; name: string }>; vendor?: string }) {
  return (
    <label>
      Vendor{" "}
      <select name="vendor" defaultValue={vendor ?? ""}>
        <option value="">All vendors</option>
        {vendors.map((v) => (
          <option key={v.slug} value={v.slug}>
            {v.name}
          </option>
        ))}
      </select>
    </label>
  );
}
