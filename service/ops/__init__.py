"""Running the service: settings from the environment (``config.py``), JSON logs
(``logs.py``), Prometheus metrics (``metrics.py``) and health (``health.py``)."""
