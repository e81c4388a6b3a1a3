//! Writers that build synthetic files from the format documents.
