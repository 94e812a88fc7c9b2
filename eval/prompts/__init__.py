"""How a question becomes a request: versioned prompt protocols in the question's language
(`protocols`) and the judge's versioned rubric files (`rubrics/`)."""
