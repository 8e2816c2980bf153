// DioramaTimeline
