-- A component page lists the incidents naming one component: sought by (vendor, component) instead of every component of the vendor's incidents read.
CREATE INDEX "incident_components_vendor_component" ON "incident_components" USING btree ("vendor_id","component_id");
