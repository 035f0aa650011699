"""The Django app: models, services over `engine/`, views, API views and Celery tasks."""
