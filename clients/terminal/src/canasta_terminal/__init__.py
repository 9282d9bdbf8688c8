"""A terminal table for the ``canasta.v1`` rules service, on the Python SDK (``canasta play``)."""
