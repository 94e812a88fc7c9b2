"""Generated sample exam material: a PDF toolkit (pdfgen) and a small archive site (site) for demos and tests."""
